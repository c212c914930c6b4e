/**
 * Lists that change while they are paged: each item once (by id) and none that stayed in the
 * list missing, for both pagers, on fake lists (no sockets) that gain or lose items between two
 * page requests; a list that keeps moving further than a page's overlap ends with
 * ListChangedError. Then every `listAll` of the client over a fake transport whose list gains two
 * items at its head after each page, and the simulator's `/__admin/list-shifts` mode.
 */
import {
  ConfigurationError,
  createClient,
  fetchAllNumbered,
  fetchAllOffset,
  ListChangedError,
  type CloudPlatformClient,
  type NumberedPage,
  type OffsetPage,
} from "../../../provider/api";
import { numberedWindow } from "../../../provider/api/pageAnchors";
import { cloudApi } from "../../../provider/api/cloud";
import { aiTasksApi } from "../../../provider/api/streaming/aiTasks";
import { waapApi } from "../../../provider/api/waap/reseller";
import type { ApiResponse, RequestSpec, Transport } from "../../../provider/api/transport";
import { startSimulator } from "../../../simulator";
import { admin, newKey } from "./helpers";

/** A list of ids that changes after each page read: `shift(list, pagesRead)` mutates it. */
class ShiftingList {
  readonly ids: string[];
  private next = 0;
  /** Every id the list held at any time, and those it held throughout. */
  readonly everSeen = new Set<string>();
  readonly removed = new Set<string>();
  /** The ids the list held before the first page. */
  readonly initial: ReadonlySet<string>;
  pages = 0;

  constructor(
    size: number,
    private readonly shift: (list: ShiftingList, pagesRead: number) => void,
  ) {
    this.ids = Array.from({ length: size }, () => this.fresh());
    this.initial = new Set(this.ids);
  }

  /** A new id (`n<k>`). */
  fresh(): string {
    const id = `n${this.next++}`;
    this.everSeen.add(id);
    return id;
  }

  insertAt(at: number, n: number): void {
    for (let i = 0; i < n; i++) this.ids.splice(Math.min(at, this.ids.length), 0, this.fresh());
  }

  removeAt(at: number, n: number): void {
    for (const id of this.ids.splice(at, n)) this.removed.add(id);
  }

  /** Ids that stayed in the list from start to end: each must be read (items added meanwhile may or may not be). */
  stayed(): string[] {
    return this.ids.filter((id) => this.initial.has(id) && !this.removed.has(id));
  }

  /** Serves `[offset, offset + limit)` and then moves. */
  offsetPage(offset: number, limit: number): OffsetPage<{ id: string }> {
    const page = { count: this.ids.length, results: this.ids.slice(offset, offset + limit).map((id) => ({ id })) };
    this.shift(this, ++this.pages);
    return page;
  }

  /** Serves page `page` of `limit` (from 1) with `next`, and then moves. */
  numberedPage(page: number, limit: number): NumberedPage<{ id: string }> {
    const start = (page - 1) * limit;
    const results = this.ids.slice(start, start + limit).map((id) => ({ id }));
    const next = start + limit < this.ids.length ? `page=${page + 1}` : null;
    this.shift(this, ++this.pages);
    return { count: this.ids.length, next, previous: null, results };
  }
}

interface ShiftCase {
  readonly name: string;
  readonly shift: (list: ShiftingList, pagesRead: number) => void;
}

/** 25 items in pages of 10 (each page after the first re-reads 3): how the list moves between pages. */
const SHIFTS: ShiftCase[] = [
  { name: "unchanged", shift: () => undefined },
  { name: "one new item at the head after every page", shift: (l) => l.insertAt(0, 1) },
  { name: "two new items at the head after every page", shift: (l) => l.insertAt(0, 2) },
  { name: "one item removed at the head after every page", shift: (l) => l.removeAt(0, 1) },
  { name: "two items removed at the head after every page", shift: (l) => l.removeAt(0, 2) },
  { name: "one removed at the head and one added at the tail (the count stays)", shift: (l) => (l.removeAt(0, 1), l.insertAt(l.ids.length, 1)) },
  { name: "one added and one removed at the head", shift: (l) => (l.removeAt(1, 1), l.insertAt(0, 1)) },
  { name: "the last item of the page read is removed", shift: (l, pages) => l.removeAt(Math.min(pages * 7 + 2, l.ids.length - 1), 1) },
  { name: "three new items in the middle", shift: (l) => l.insertAt(12, 3) },
  { name: "fifteen new items at the head, once (the listing starts again)", shift: (l, pages) => (pages === 1 ? l.insertAt(0, 15) : undefined) },
  { name: "eight items removed at the head, once (the listing starts again)", shift: (l, pages) => (pages === 1 ? l.removeAt(0, 8) : undefined) },
];

/** Each item once; every item that stayed is there; nothing that never was. */
function expectReadOnce(list: ShiftingList, read: readonly { id: string }[]): void {
  const ids = read.map((r) => r.id);
  expect(ids.length).toBe(new Set(ids).size);
  expect(ids.filter((id) => !list.everSeen.has(id))).toEqual([]);
  expect(list.stayed().filter((id) => !ids.includes(id))).toEqual([]);
}

describe("offset pages of a list that moves between pages", () => {
  test.each(SHIFTS)("$name: each item once, none missing", async ({ shift }) => {
    const list = new ShiftingList(25, shift);
    const read = await fetchAllOffset(async (p) => list.offsetPage(p.offset, p.limit), { pageSize: 10, idOf: (i) => i.id, what: "GET /fake" });
    expectReadOnce(list, read);
  });

  test.each([
    { name: "fifteen new items at the head after every page", shift: (l: ShiftingList) => l.insertAt(0, 15) },
    { name: "eight items removed at the head and eight added at the tail after every page", shift: (l: ShiftingList) => (l.removeAt(0, 8), l.insertAt(l.ids.length, 8)) },
  ])("$name: ListChangedError naming the list, after three fresh starts", async ({ shift }) => {
    const list = new ShiftingList(60, shift);
    const read = fetchAllOffset(async (p) => list.offsetPage(p.offset, p.limit), { pageSize: 10, idOf: (i) => i.id, what: "GET /fake/list" });
    await expect(read).rejects.toThrow(ListChangedError);
    await expect(read).rejects.toThrow(/^GET \/fake\/list changed by more than a few items between two pages on each of 4 reads/);
  });
});

describe("numbered pages of a list that moves between pages", () => {
  test.each(SHIFTS)("$name: each item once, none missing", async ({ shift }) => {
    const list = new ShiftingList(25, shift);
    const read = await fetchAllNumbered(async (page, limit) => list.numberedPage(page, limit ?? 10), { pageSize: 10, idOf: (i) => i.id, what: "GET /fake" });
    expectReadOnce(list, read);
  });

  test("a list that keeps moving further than a page's overlap: ListChangedError", async () => {
    const list = new ShiftingList(60, (l) => l.insertAt(0, 15));
    const read = fetchAllNumbered(async (page, limit) => list.numberedPage(page, limit ?? 10), { pageSize: 10, idOf: (i) => i.id, what: "GET /fake/tasks" });
    await expect(read).rejects.toThrow(ListChangedError);
    await expect(read).rejects.toThrow(/^GET \/fake\/tasks changed by more than a few items between two pages on each of 4 reads/);
  });
});

describe("the page-number request that re-reads a few items", () => {
  test.each([
    { position: 10, back: 3, pageSize: 10 },
    { position: 17, back: 3, pageSize: 10 },
    { position: 1000, back: 5, pageSize: 100 },
    { position: 4999, back: 5, pageSize: 100 },
    { position: 7, back: 2, pageSize: 7 },
    { position: 3, back: 3, pageSize: 10 },
  ])("at $position, re-reading $back with pages of at most $pageSize: starts early enough and reads past the place", ({ position, back, pageSize }) => {
    const w = numberedWindow(position, back, pageSize);
    expect(w.limit).toBeLessThanOrEqual(pageSize);
    expect(w.start).toBe((w.page - 1) * w.limit);
    expect(w.start).toBeLessThanOrEqual(position - w.back);
    expect(w.start + w.limit).toBeGreaterThan(position);
    expect(w.back).toBe(back);
  });

  test.each([0, 2.5])("pages of %p items: a ConfigurationError", (pageSize) => {
    expect(() => numberedWindow(10, 3, pageSize)).toThrow(ConfigurationError);
  });
});

/** A transport serving one list (wire items from `wire(id)`) in the page style of its path, two new items at the head after each page. */
function fakeTransport(wire: (id: string) => Record<string, unknown>): { transport: Transport; list: ShiftingList } {
  const list = new ShiftingList(23, (l) => l.insertAt(0, 2));
  const transport: Transport = {
    async request<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
      const q = (spec.query ?? {}) as Record<string, unknown>;
      const limit = Number(q.limit ?? 10);
      let body: Record<string, unknown>;
      if (q.page !== undefined) {
        const p = list.numberedPage(Number(q.page), limit);
        body = { ...p, results: p.results.map((r) => wire(r.id)) };
      } else {
        const offset = Number(q.offset ?? 0);
        const p = list.offsetPage(offset, limit);
        body = { limit, offset, count: spec.path.startsWith("/waap") ? p.results.length : p.count, results: p.results.map((r) => wire(r.id)) };
      }
      const data = spec.response ? spec.response.parse(body) : (undefined as T);
      return { method: spec.method, path: spec.path, status: 200, data, header: () => undefined };
    },
  };
  return { transport, list };
}

const num = (id: string) => Number(id.slice(1)) + 1;

describe("every listAll of the client, over a list that gains two items at its head after each page", () => {
  test.each([
    { name: "cloud.instances.listAll", wire: (id: string) => ({ id, name: id }), run: (t: Transport) => cloudApi(t).instances.listAll(1, 76, {}, { pageSize: 10 }), idOf: (i: any) => i.id },
    { name: "cloud.projects.listAll", wire: (id: string) => ({ id: num(id), name: id, is_default: false }), run: (t: Transport) => cloudApi(t).projects.listAll({}, { pageSize: 10 }), idOf: (p: any) => `n${p.id - 1}` },
    {
      name: "cloud.regions.listAll",
      wire: (id: string) => ({ id: num(id), display_name: id, state: "ACTIVE", access_level: "core", has_kvm: true, has_baremetal: false, has_k8s: true, has_dbaas: false }),
      run: (t: Transport) => cloudApi(t).regions.listAll({}, { pageSize: 10 }),
      idOf: (r: any) => `n${r.id - 1}`,
    },
    { name: "cloud.tasks.listAll", wire: (id: string) => ({ id, state: "FINISHED" }), run: (t: Transport) => cloudApi(t).tasks.listAll({}, { pageSize: 10 }), idOf: (t: any) => t.id },
    { name: "cloud.k8s.listAllClusters", wire: (id: string) => ({ name: id }), run: (t: Transport) => cloudApi(t).k8s.listAllClusters(1, 76, { pageSize: 10 }), idOf: (c: any) => c.name },
    { name: "streaming.aiTasks.listAll", wire: (id: string) => ({ task_id: id }), run: (t: Transport) => aiTasksApi(t).listAll({ limit: 10 }), idOf: (a: any) => a.taskId },
    {
      name: "waap.reseller.totalsAll",
      wire: (id: string) => ({ date: id, amount: 1 }),
      run: (t: Transport) => waapApi({ ...t, baseUrl: "http://127.0.0.1:1" }).reseller.totalsAll("requests", { from: "2026-01-01", to: "2026-02-01" }, { pageSize: 10 }),
      idOf: (r: any) => r.date,
    },
  ])("$name: each item once, none of the first 23 missing", async ({ wire, run, idOf }) => {
    const { transport, list } = fakeTransport(wire);
    const read = ((await run(transport)) as unknown[]).map((item) => ({ id: idOf(item) as string }));
    expectReadOnce(list, read);
  });
});

describe("the simulator's list-shift mode", () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let client: CloudPlatformClient;
  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey() });
    client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
  });
  afterAll(async () => sim.close());

  test("instances gaining two at the head after each page: the 25 seeded ones each once, and the list did grow", async () => {
    const seeded = sim.state().instances.filter((i) => i.project_id === 1 && i.region_id === 76).map((i) => i.id);
    const { rule } = await admin(sim, "POST", "/list-shifts", { path: "/cloud/v1/instances/1/76", insert: 2 });
    expect(rule).toEqual({ path: "/cloud/v1/instances/1/76", insert: 2, remove: 0, times: null });
    const read = (await client.cloud.instances.listAll(1, 76, {}, { pageSize: 10 })).map((i) => i.id);
    expect(read.length).toBe(new Set(read).size);
    expect(seeded.filter((id) => !read.includes(id))).toEqual([]);
    expect(sim.state().instances.filter((i) => i.project_id === 1 && i.region_id === 76).length).toBeGreaterThan(seeded.length);
  });
});
