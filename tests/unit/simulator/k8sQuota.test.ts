/**
 * Quotas, the rolling replacement and pool health in the simulator: `POST .../pools/check_limits`
 * from the seed's quotas and flavors (and agreeing with the upgrade task's own quota decision),
 * quotas set through the admin API, the pools' status through an upgrade one node at a time, and
 * a pool made unhealthy after an upgrade.
 */
import { RunningSimulator } from "../../../simulator";
import { poolsDuring } from "../../../simulator/rollingReplacement";
import type { Pool } from "../../../simulator/state";
import { call, expectCloudError, start } from "./helpers";

const BASE = "/cloud/v2/k8s/clusters";
const CHECK = (project: number, region = 76) => `${BASE}/${project}/${region}/pools/check_limits`;
let fakeNow = Date.parse("2026-11-01T00:00:00Z");
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start({ now: () => fakeNow });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

/** Advances the fake clock by simulated seconds (timeScale 1). */
const advance = (seconds: number) => {
  fakeNow += seconds * 1000;
};
const admin = (method: string, path: string, body?: unknown) => call(sim.url, method, `/__admin${path}`, { key: null, body });
const pool = (flavor = "g1-standard-2-4", nodes = 3) => ({ flavor_id: flavor, node_count: nodes, min_node_count: nodes, max_node_count: nodes });
const poolsOf = async (path: string) => (await call(sim.url, "GET", `${BASE}/${path}`)).body.pools.map((p: { status: string; node_count: number }) => [p.status, p.node_count]);

describe("check_limits", () => {
  test("project 2 (vm_count 4, 3 nodes in use) cannot hold a second 3-node pool: the exceeded quota with limit, usage and requested", async () => {
    const r = await call(sim.url, "POST", CHECK(2), { body: pool() });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ vm_count_limit: 4, vm_count_usage: 3, vm_count_requested: 3 });
  });

  test("a pool that fits answers {} and nothing is written (no task, state unchanged)", async () => {
    const before = (await admin("GET", "/state")).body;
    const r = await call(sim.url, "POST", CHECK(1), { body: pool() });
    expect(r.body).toEqual({});
    const after = (await admin("GET", "/state")).body;
    expect(after.tasks).toEqual([]);
    expect(after.clusters).toEqual(before.clusters);
  });

  test("cpu_count and ram come from the seed's flavors; every exceeded quota is reported", async () => {
    // Project 1 runs 12 nodes of g1-standard-2-4 (2 vCPUs, 4096 MiB): 24 vCPUs, 49152 MiB.
    expect((await admin("PUT", "/quotas/1", { vm_count: 100, cpu_count: 40, ram: 60000 })).status).toBe(200);
    const r = await call(sim.url, "POST", CHECK(1), { body: pool("g1-standard-4-8", 5) });
    expect(r.body).toEqual({ cpu_count_limit: 40, cpu_count_usage: 24, cpu_count_requested: 20, ram_limit: 60000, ram_usage: 49152, ram_requested: 40960 });
  });

  test("the answer agrees with the upgrade task: exceeded there means the task fails with that quota, {} means it finishes", async () => {
    for (const [limit, fails] of [[5, true], [6, false]] as const) {
      sim.reset();
      await admin("PUT", "/quotas/2", { vm_count: limit });
      const check = await call(sim.url, "POST", CHECK(2), { body: pool() });
      const up = await call(sim.url, "POST", `${BASE}/2/76/staging-cluster/upgrade`, { body: { version: "v1.30.4" } });
      advance(31);
      const task = (await call(sim.url, "GET", `/cloud/v1/tasks/${up.body.tasks[0]}`)).body;
      expect({ limit, check: check.body, state: task.state, error: task.error }).toEqual(
        fails
          ? { limit, check: { vm_count_limit: limit, vm_count_usage: 3, vm_count_requested: 3 }, state: "ERROR", error: `Quota limit for vm_count exceeded by ${6 - limit}` }
          : { limit, check: {}, state: "FINISHED", error: null },
      );
    }
  });

  const invalid: Array<[string, unknown, string]> = [
    ["no flavor_id", { node_count: 3 }, "flavor_id"],
    ["node_count 0", { flavor_id: "g1-standard-2-4", node_count: 0 }, "node_count"],
    ["max_node_count 201", { flavor_id: "g1-standard-2-4", max_node_count: 201 }, "max_node_count"],
    ["an unknown flavor", { flavor_id: "g9-huge" }, "flavor_id"],
  ];
  test.each(invalid)("%s is 400 ValidationError naming the field", async (_what, body, field) => {
    const r = await call(sim.url, "POST", CHECK(1), { body });
    expectCloudError(r, 400, "ValidationError");
    expect(Object.keys(r.body.invalid_fields)).toEqual([field]);
  });

  test("an unknown project is 404; the read-only key may not POST (403), like every POST", async () => {
    expectCloudError(await call(sim.url, "POST", CHECK(99), { body: pool() }), 404, "NotFoundError");
    expectCloudError(await call(sim.url, "POST", CHECK(1), { body: pool(), key: "read-only-key" }), 403, "ForbiddenError");
  });

  test("admin quotas: only the computed quotas, non-negative integers; a PUT replaces the project's limits", async () => {
    const bad = await admin("PUT", "/quotas/1", { volume_count: 3 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("unknown quota volume_count; the simulator computes vm_count, cpu_count, ram");
    expect((await admin("PUT", "/quotas/1", { ram: 1.5 })).body.error).toBe("ram must be a non-negative integer");
    expect((await admin("PUT", "/quotas/2", { cpu_count: 7 })).body["2"]).toEqual({ cpu_count: 7 });
    expect((await call(sim.url, "POST", CHECK(2), { body: pool() })).body).toEqual({ cpu_count_limit: 7, cpu_count_usage: 6, cpu_count_requested: 6 });
  });
});

describe("the rolling replacement", () => {
  test("one node at a time, pool after pool: Scaling up then Scaling down with one node more, the others Running; all Running after", async () => {
    const started = fakeNow;
    const up = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } });
    expect(up.status).toBe(200);
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Running", 3]]); // NEW
    // NEW for 1 s, then RUNNING for 30 s: 3 nodes, 10 s each, created in the first half and removed in the second.
    const phases: unknown[] = [];
    for (const at of [1 + 2, 1 + 7, 1 + 12, 1 + 27]) {
      fakeNow = started + at * 1000;
      phases.push(await poolsOf("1/76/prod-cluster"));
    }
    expect(phases).toEqual([[["Scaling up", 4]], [["Scaling down", 4]], [["Scaling up", 4]], [["Scaling down", 4]]]);
    fakeNow = started + 32 * 1000;
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Running", 3]]);
  });

  // Two pools of 2 and 1 nodes: three turns of a third each, the first pool's two, then the second's.
  const twoPools = [
    { name: "a", node_count: 2, status: "Running" },
    { name: "b", node_count: 1, status: "Running" },
  ] as unknown as Pool[];
  const turns: Array<[number, Array<[string, number]>]> = [
    [-0.1, [["Running", 2], ["Running", 1]]],
    [0.1, [["Scaling up", 3], ["Running", 1]]],
    [0.2, [["Scaling down", 3], ["Running", 1]]],
    [0.4, [["Scaling up", 3], ["Running", 1]]],
    [0.7, [["Running", 2], ["Scaling up", 2]]],
    [0.9, [["Running", 2], ["Scaling down", 2]]],
    [1, [["Running", 2], ["Running", 1]]],
  ];
  test.each(turns)("%s of the way through, two pools of 2 and 1 nodes look like %j", (progress, expected) => {
    expect(poolsDuring(twoPools, progress).map((p) => [p.status, p.node_count])).toEqual(expected);
  });
});

describe("a pool made unhealthy", () => {
  const UNHEALTHY = "/clusters/1/76/prod-cluster/pools/pool-1/unhealthy";

  test("after the next upgrade ends and after_reads more reads, the pool reports the status and node count from then on", async () => {
    expect((await admin("POST", UNHEALTHY, { status: "Error", node_count: 2, after_reads: 1 })).status).toBe(200);
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Running", 3]]); // no upgrade yet: not counted
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Running", 3]]);
    const up = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } });
    expect(up.status).toBe(200);
    advance(31);
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Running", 3]]); // the one read left
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Error", 2]]);
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Error", 2]]);
    expect((await admin("GET", "/state")).body.poolHealth).toEqual([]);
  });

  test("with after_upgrade false it counts at once; the status defaults to Error; a reset forgets it", async () => {
    await admin("POST", UNHEALTHY, { after_upgrade: false });
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Error", 3]]);
    sim.reset();
    expect(await poolsOf("1/76/prod-cluster")).toEqual([["Running", 3]]);
  });

  const bad: Array<[string, string, unknown, number, string]> = [
    ["an unknown pool", "/clusters/1/76/prod-cluster/pools/pool-9/unhealthy", {}, 404, "pool pool-9 not found in cluster prod-cluster"],
    ["an unknown cluster", "/clusters/1/76/nope/pools/pool-1/unhealthy", {}, 404, "cluster nope not found in project 1 region 76"],
    ["an empty status", UNHEALTHY, { status: "" }, 400, "status must be a non-empty string"],
    ["a negative node_count", UNHEALTHY, { node_count: -1 }, 400, "node_count must be a non-negative integer"],
    ["after_reads as text", UNHEALTHY, { after_reads: "2" }, 400, "after_reads must be a non-negative integer"],
    ["after_upgrade as text", UNHEALTHY, { after_upgrade: "yes" }, 400, "after_upgrade must be true or false"],
  ];
  test.each(bad)("%s is refused", async (_what, path, body, status, error) => {
    const r = await admin("POST", path, body);
    expect({ status: r.status, error: r.body.error }).toEqual({ status, error });
  });
});

describe("unserved endpoints", () => {
  test("check_limits played as not served: 404 like an unknown path, or 501; the rest is served; DELETE and reset clear it", async () => {
    expect((await admin("POST", "/unserved", { method: "post", pathPrefix: "/cloud/v2/k8s/clusters/", status: 404 })).body.unserved).toEqual([
      { method: "POST", pathPrefix: "/cloud/v2/k8s/clusters/", status: 404 },
    ]);
    const missing = await call(sim.url, "POST", CHECK(2), { body: pool() });
    expectCloudError(missing, 404, "NotFoundError");
    expect(missing.body.message).toBe(`Path ${CHECK(2)} could not be found`);
    expect((await call(sim.url, "GET", `${BASE}/2/76/staging-cluster`)).status).toBe(200);
    expect((await admin("DELETE", "/unserved")).status).toBe(204);
    expect((await call(sim.url, "POST", CHECK(2), { body: pool() })).status).toBe(200);

    await admin("POST", "/unserved", { path: CHECK(2), status: 501 });
    expectCloudError(await call(sim.url, "POST", CHECK(2), { body: pool() }), 501, "NotImplemented");
    sim.reset();
    expect((await admin("GET", "/unserved")).body.unserved).toEqual([]);
    expect((await call(sim.url, "POST", CHECK(2), { body: pool() })).status).toBe(200);
  });

  const bad: Array<[string, unknown, string]> = [
    ["no path", { method: "POST" }, "path or pathPrefix is required"],
    ["a relative path", { path: "cloud/x" }, "path must be a string starting with /"],
    ["another status", { path: "/x", status: 500 }, "status must be one of 404, 501"],
  ];
  test.each(bad)("a rule with %s is refused", async (_what, body, error) => {
    const r = await admin("POST", "/unserved", body);
    expect({ status: r.status, error: r.body.error }).toEqual({ status: 400, error });
  });
});
