/**
 * Both pagers: offset pages (instances, 25 items) and page-number pages (AI tasks, 27 items),
 * over more than one page of the simulator, plus the termination rules on synthetic pages.
 */
import {
  createClient,
  fetchAllNumbered,
  fetchAllOffset,
  iterateNumberedPages,
  iterateOffsetPages,
  type CloudPlatformClient,
  type OffsetPage,
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
    expect(requestsTo("/cloud/v1/instances/1/76")).toHaveLength(4);
    expect((await client.cloud.projects.listAll({}, { pageSize: 1 })).map((p) => p.id).sort()).toEqual([1, 2, 3]);
    expect(await client.cloud.instances.listAll(2, 76, {}, { pageSize: 2, max: 2 })).toHaveLength(2);
  });

  test("termination: count reached, short page, empty page", async () => {
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
    await expect(fetchAllOffset(exact.fetch, { pageSize: 0 })).rejects.toThrow(RangeError);
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
