/**
 * Both pagers: offset pages (instances, 25 items) and page-number pages (AI tasks, 27 items),
 * over more than one page of the simulator, plus the termination rules on synthetic pages: an
 * offset list ends when `count` is reached or a page is empty (a page shorter than asked does not
 * end it: servers cap pages), or, without `count`, at the first empty page; a numbered list
 * follows `next` when sent, else `count`, else reads until an empty page.
 */
import {
  createClient,
  ConfigurationError,
  PaginationLimitError,
  fetchAllNumbered,
  fetchAllOffset,
  iterateNumberedPages,
  iterateOffsetPages,
  type CloudPlatformClient,
  type NumberedPage,
  type OffsetPage,
  type PageProgress,
} from "../../../provider/api";
import { startSimulator } from "../../../simulator";
import { admin, newKey } from "./helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let client: CloudPlatformClient;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
  client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
});

const requestsTo = (path: string) => sim.requests().filter((r) => r.path === path);

describe("offset pages", () => {
  test("fetchAllOffset walks every page of instances once", async () => {
    const all = await fetchAllOffset((p) => client.cloud.instances.list(1, 76, p), { pageSize: 10 });
    expect(all).toHaveLength(25);
    expect(new Set(all.map((i) => i.id)).size).toBe(25);
    expect(requestsTo("/cloud/v1/instances/1/76").map((r) => r.query)).toEqual([
      { limit: "10", offset: "0" },
      { limit: "10", offset: "10" },
      { limit: "10", offset: "20" },
    ]);
  });

  test("the async iterator stops at the cap without fetching further pages", async () => {
    const names: string[] = [];
    for await (const i of iterateOffsetPages((p) => client.cloud.instances.list(1, 76, p), { pageSize: 4, max: 6 })) names.push(i.name);
    expect(names).toHaveLength(6);
    expect(requestsTo("/cloud/v1/instances/1/76")).toHaveLength(2);
  });

  test("listAll helpers use the pager (instances, projects, tasks)", async () => {
    expect(await client.cloud.instances.listAll(1, 76, {}, { pageSize: 7 })).toHaveLength(25);
    // listAll pages overlap: each page after the first re-reads the last 2 of the one before (pageAnchors.ts).
    expect(requestsTo("/cloud/v1/instances/1/76").map((r) => r.query["offset"])).toEqual(["0", "5", "10", "15", "20"]);
    expect((await client.cloud.projects.listAll({}, { pageSize: 1 })).map((p) => p.id).sort()).toEqual([1, 2, 3]);
    expect(await client.cloud.instances.listAll(2, 76, {}, { pageSize: 2, max: 2 })).toHaveLength(2);
  });

  test("termination: count reached, empty page", async () => {
    const fake = (total: number, lie = 0) => {
      const calls: number[] = [];
      const fetch = async ({ limit, offset }: { limit: number; offset: number }): Promise<OffsetPage<number>> => {
        calls.push(offset);
        const results = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => offset + i);
        return { count: total + lie, results };
      };
      return { calls, fetch };
    };
    const exact = fake(20);
    expect(await fetchAllOffset(exact.fetch, { pageSize: 10 })).toHaveLength(20);
    expect(exact.calls).toEqual([0, 10]);
    const overstated = fake(20, 100); // the count lies; the empty page ends it
    expect(await fetchAllOffset(overstated.fetch, { pageSize: 10 })).toHaveLength(20);
    expect(overstated.calls).toEqual([0, 10, 20]);
  });
});

describe("pager options out of range: a ConfigurationError naming the option, before any page is asked for", () => {
  const noPage = async (): Promise<never> => {
    throw new Error("no page may be asked for");
  };
  test.each([
    { pager: "offset", options: { pageSize: 0 }, message: "pageSize must be an integer >= 1, got 0" },
    { pager: "offset", options: { maxPages: 2.5 }, message: "maxPages must be an integer >= 1, got 2.5" },
    { pager: "offset", options: { idOf: (n: number) => n, overlap: -1 }, message: "overlap must be an integer >= 0, got -1" },
    { pager: "offset", options: { maxRestarts: 0.5 }, message: "maxRestarts must be an integer >= 0, got 0.5" },
    { pager: "numbered", options: { startPage: 0 }, message: "startPage must be an integer >= 1, got 0" },
    { pager: "numbered", options: { pageSize: -3 }, message: "pageSize must be an integer >= 1, got -3" },
  ])("$pager pager, $message", async ({ pager, options, message }) => {
    const read = pager === "offset" ? fetchAllOffset(noPage, options) : fetchAllNumbered(noPage, options);
    await expect(read).rejects.toThrow(ConfigurationError);
    await expect(read).rejects.toThrow(message);
  });
});

describe("page-number pages", () => {
  test("fetchAllNumbered follows `next` to the end", async () => {
    const all = await fetchAllNumbered((page) => client.streaming.aiTasks.list({ page, limit: 10 }));
    expect(all).toHaveLength(27);
    expect(new Set(all.map((t) => t.taskId)).size).toBe(27);
    expect(requestsTo("/streaming/ai/tasks").map((r) => r.query["page"])).toEqual(["1", "2", "3"]);
  });

  test("the async iterator honours a cap and a filter", async () => {
    const seen: string[] = [];
    for await (const t of iterateNumberedPages((page) => client.streaming.aiTasks.list({ page, limit: 5 }), { max: 7 })) seen.push(t.taskId);
    expect(seen).toHaveLength(7);
    expect(requestsTo("/streaming/ai/tasks")).toHaveLength(2);
    const moderation = await client.streaming.aiTasks.listAll({ taskName: "content-moderation", limit: 4 });
    expect(moderation.length).toBeGreaterThan(0);
    expect(moderation.every((t) => t.taskName === "content-moderation")).toBe(true);
  });

  test("stops on next === null even if results were full", async () => {
    const calls: number[] = [];
    const out = await fetchAllNumbered(async (page) => {
      calls.push(page);
      return { count: 4, next: page < 2 ? `page=${page + 1}` : null, previous: null, results: [page * 10, page * 10 + 1] };
    });
    expect(out).toEqual([10, 11, 20, 21]);
    expect(calls).toEqual([1, 2]);
  });
});

describe("a server that caps its pages below the limit asked", () => {
  /** 25 items, at most `cap` a page whatever the limit, `count` the total (or null: not sent). */
  const capped = (total: number, cap: number, count: number | null = total) => {
    const calls: { limit: number; offset: number }[] = [];
    const fetch = async ({ limit, offset }: { limit: number; offset: number }): Promise<OffsetPage<number>> => {
      calls.push({ limit, offset });
      const results = Array.from({ length: Math.max(0, Math.min(limit, cap, total - offset)) }, (_, i) => offset + i);
      return { count, results };
    };
    return { calls, fetch };
  };

  test("every item is read: a short page does not end the list while count says more are left", async () => {
    const server = capped(25, 10);
    const progress: PageProgress[] = [];
    const all = await fetchAllOffset(server.fetch, { pageSize: 100, onPage: (p) => progress.push(p) });
    expect(all).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(server.calls.map((c) => c.offset)).toEqual([0, 10, 20]);
    // The progress learns the server's page size from the first page.
    expect(progress.map((p) => [p.pages, p.items, p.totalItems, p.totalPages])).toEqual([
      [1, 10, 25, 3],
      [2, 20, 25, 3],
      [3, 25, 25, 3],
    ]);
  });

  test("an empty page ends the list even when count says more", async () => {
    const server = capped(12, 5, 40);
    expect(await fetchAllOffset(server.fetch, { pageSize: 100 })).toHaveLength(12);
    expect(server.calls.map((c) => c.offset)).toEqual([0, 5, 10, 12]);
  });

  test("the page cap still holds: more pages than maxPages is a PaginationLimitError", async () => {
    const server = capped(25, 10);
    await expect(fetchAllOffset(server.fetch, { pageSize: 100, maxPages: 2, what: "GET /cloud/v1/instances/1/76" })).rejects.toThrow(PaginationLimitError);
    expect(server.calls).toHaveLength(2);
  });

  test("a page without count (regions) is followed until an empty page", async () => {
    const server = capped(7, 3, null);
    expect(await fetchAllOffset(server.fetch, { pageSize: 100 })).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(server.calls.map((c) => c.offset)).toEqual([0, 3, 6, 7]);
    const none = capped(0, 3, null);
    expect(await fetchAllOffset(none.fetch)).toEqual([]);
    expect(none.calls).toHaveLength(1);
  });

  test("the simulator's public-api dialect (10 a page, regions without count): every instance and region is read", async () => {
    await admin(sim.url, "POST", "/dialect", { dialect: "public-api" });
    const instances = await client.cloud.instances.listAll(1, 76, {}, { pageSize: 100 });
    expect(instances).toHaveLength(25);
    expect(new Set(instances.map((i) => i.id)).size).toBe(25);
    // Pages of 10, each after the first re-reading 3 of the one before.
    expect(requestsTo("/cloud/v1/instances/1/76").map((r) => r.query["offset"])).toEqual(["0", "7", "14", "21"]);
    const regions = await client.cloud.regions.listAll({}, { pageSize: 4 });
    const regionPages = requestsTo("/cloud/v1/regions");
    expect(regions.length).toBeGreaterThan(4);
    expect(new Set(regions.map((r) => r.id)).size).toBe(regions.length);
    // Without a count the list ends at the first page with nothing new: pages of 4 each re-read
    // the last region of the one before, so the last page re-reads the last region only.
    expect(regionPages).toHaveLength(Math.ceil(regions.length / 4) + 1);
    expect(regionPages[regionPages.length - 1]?.query["offset"]).toBe(String(regions.length - 1));
  });
});

describe("numbered pages without next", () => {
  const numbered = (total: number, perPage: number, shape: { count: boolean; next: boolean }) => {
    const calls: number[] = [];
    const fetch = async (page: number): Promise<NumberedPage<number>> => {
      calls.push(page);
      const results = Array.from({ length: Math.max(0, Math.min(perPage, total - (page - 1) * perPage)) }, (_, i) => (page - 1) * perPage + i);
      const next = (page * perPage < total ? `page=${page + 1}` : null) as string | null;
      return { count: shape.count ? total : null, next: shape.next ? next : undefined, previous: null, results };
    };
    return { calls, fetch };
  };

  test("follow count when they send it: no page past the total", async () => {
    const server = numbered(5, 2, { count: true, next: false });
    expect(await fetchAllNumbered(server.fetch)).toEqual([0, 1, 2, 3, 4]);
    expect(server.calls).toEqual([1, 2, 3]);
  });

  test("without next and count: read until an empty page", async () => {
    const server = numbered(5, 2, { count: false, next: false });
    expect(await fetchAllNumbered(server.fetch)).toEqual([0, 1, 2, 3, 4]);
    expect(server.calls).toEqual([1, 2, 3, 4]);
  });

  test("next, when sent, decides over count", async () => {
    const server = numbered(5, 2, { count: true, next: true });
    const lying = async (page: number): Promise<NumberedPage<number>> => ({ ...(await server.fetch(page)), count: 100 });
    expect(await fetchAllNumbered(lying)).toEqual([0, 1, 2, 3, 4]);
    expect(server.calls).toEqual([1, 2, 3]);
  });

  test("the page cap holds without next too", async () => {
    const endless = async (page: number): Promise<NumberedPage<number>> => ({ count: null, next: undefined, previous: null, results: [page] });
    await expect(fetchAllNumbered(endless, { maxPages: 4 })).rejects.toThrow(PaginationLimitError);
  });

  test("the simulator's public-api AI task pages (no count) are read whole", async () => {
    await admin(sim.url, "POST", "/dialect", { dialect: "public-api" });
    const all = await fetchAllNumbered((page) => client.streaming.aiTasks.list({ page, limit: 10 }));
    expect(all).toHaveLength(27);
    expect(all.every((t) => t.taskName !== null)).toBe(true);
  });
});
