/** Managed Kubernetes: list/get, upgrade_versions, the upgrade rules and the task lifecycle. */
import { RunningSimulator } from "../../../simulator";
import { parseVersion, upgradeTargets } from "../../../simulator/routes/k8s";
import { call, expectCloudError, start, waitTask } from "./helpers";

const BASE = "/cloud/v2/k8s/clusters";
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

describe("version helpers", () => {
  test("parseVersion and the next-minor rule", () => {
    expect(parseVersion("v1.30.4")).toEqual({ major: 1, minor: 30, patch: 4 });
    expect(parseVersion("1.30.4")).toBeUndefined();
    const cat = ["v1.29.1", "v1.29.8", "v1.30.4", "v1.31.0", "v1.31.2"];
    expect(upgradeTargets(cat, "v1.29.1")).toEqual(["v1.30.4"]);
    expect(upgradeTargets(cat, "v1.30.4")).toEqual(["v1.31.2"]);
    expect(upgradeTargets(cat, "v1.31.2")).toEqual([]);
    expect(upgradeTargets(cat, "garbage")).toEqual([]);
  });
});

describe("list and get", () => {
  test("lists clusters per project and region; empty gives count 0", async () => {
    const p1 = await call(sim.url, "GET", `${BASE}/1/76`);
    expect(p1.status).toBe(200);
    expect(p1.body.count).toBe(4);
    expect(p1.body.results.map((c: { name: string }) => c.name).sort()).toEqual(["demo-cluster", "edge-cluster", "legacy-cluster", "prod-cluster"]);
    const p2 = await call(sim.url, "GET", `${BASE}/2/76`);
    expect(p2.body.results.map((c: { name: string }) => c.name)).toEqual(["staging-cluster"]);
    const p3 = await call(sim.url, "GET", `${BASE}/3/76`);
    expect(p3.body).toEqual({ count: 0, results: [] });
    const paged = await call(sim.url, "GET", `${BASE}/1/76?limit=1&offset=3`);
    expect(paged.body.count).toBe(4);
    expect(paged.body.results).toHaveLength(1);
  });

  test("clusters carry csi.nfs.ddn_enabled; pools carry kubelet_config, crio_config (string maps) and security_group_ids", async () => {
    const all = [...(await call(sim.url, "GET", `${BASE}/1/76`)).body.results, ...(await call(sim.url, "GET", `${BASE}/2/76`)).body.results];
    expect(all).toHaveLength(5);
    for (const c of all) {
      expect(c.csi.nfs).toEqual({ vast_enabled: expect.any(Boolean), ddn_enabled: expect.any(Boolean) });
      expect(c.pools.length).toBeGreaterThan(0);
      for (const p of c.pools) {
        for (const config of [p.kubelet_config, p.crio_config]) {
          expect(config).toEqual(expect.any(Object));
          expect(Array.isArray(config)).toBe(false);
          for (const v of Object.values(config)) expect(typeof v).toBe("string");
        }
        expect(p.security_group_ids.length).toBeGreaterThan(0);
        for (const id of p.security_group_ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    }
    const prod = (await call(sim.url, "GET", `${BASE}/1/76/prod-cluster`)).body;
    expect(prod.pools[0].kubelet_config).toEqual({ "max-pods": "110" });
  });

  test("a user seed without those fields gets them with empty defaults", async () => {
    const small = await start({
      seed: {
        projects: [{ id: 1, name: "p", is_default: true }],
        regions: [{ id: 5, display_name: "R" }],
        clusters: [{ id: "c-1", name: "c", project_id: 1, region_id: 5, version: "v1.30.4", pools: [{ name: "p1", node_count: 1, kubelet_config: null }] }],
        aiTasks: [
          { task_id: "t-1", task_name: "transcription", status: "STARTED", progress: 10, task_data: {}, started_at: "2026-10-01T00:00:00" },
          { task_id: "t-2", task_name: "transcription", status: "PENDING", progress: 0, task_data: {}, started_at: "2026-10-02T00:00:00" },
        ],
      },
    });
    try {
      const c = (await call(small.url, "GET", `${BASE}/1/5/c`)).body;
      expect(c.csi).toEqual({ nfs: { vast_enabled: false, ddn_enabled: false } });
      expect(c.pools[0]).toMatchObject({ kubelet_config: {}, crio_config: {}, security_group_ids: [] });
      const tasks = (await call(small.url, "GET", "/streaming/ai/tasks?ordering=task_id")).body.results;
      expect(tasks.map((t: { processing_time: unknown }) => t.processing_time)).toEqual([
        { started_at: "2026-10-01T00:00:00", completed_at: null, total_time_sec: null },
        { started_at: null, completed_at: null, total_time_sec: null },
      ]);
    } finally {
      await small.close();
    }
  });

  test("get returns version, status, pools and an empty lock", async () => {
    const r = await call(sim.url, "GET", `${BASE}/1/76/prod-cluster`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "prod-cluster", version: "v1.30.4", status: "Provisioned", task_id: null });
    expect(r.body.pools[0].node_count).toBe(3);
    expect(typeof r.body.id).toBe("string");
  });

  test("unknown cluster, project or region is 404 NotFoundError", async () => {
    const r = await call(sim.url, "GET", `${BASE}/1/76/nope`);
    expectCloudError(r, 404, "NotFoundError");
    expect(r.body.message).toBe("Cluster nope could not be found");
    expectCloudError(await call(sim.url, "GET", `${BASE}/1/76/nope/upgrade_versions`), 404, "NotFoundError");
    expectCloudError(await call(sim.url, "GET", `${BASE}/999/76`), 404, "NotFoundError");
    expectCloudError(await call(sim.url, "POST", `${BASE}/1/999/prod-cluster/upgrade`, { body: { version: "v1.31.2" } }), 404, "NotFoundError");
  });
});

describe("upgrade_versions", () => {
  test.each([
    ["1/76/prod-cluster", ["v1.31.2"]],
    ["1/76/demo-cluster", ["v1.31.2"]],
    ["1/76/legacy-cluster", ["v1.29.8"]],
    ["1/76/edge-cluster", []],
    ["2/76/staging-cluster", ["v1.30.4"]],
  ])("%s -> %j", async (path, versions) => {
    const r = await call(sim.url, "GET", `${BASE}/${path}/upgrade_versions`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ count: versions.length, results: versions.map((version) => ({ version })) });
  });
});

describe("upgrade", () => {
  test("a target not in upgrade_versions is 400 naming the permitted versions", async () => {
    for (const version of ["v1.32.1", "v1.30.4", "v1.29.8", "latest"]) {
      const r = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version } });
      expectCloudError(r, 400, "ValidationError");
      expect(r.body.message).toContain("v1.31.2");
    }
    const newest = await call(sim.url, "POST", `${BASE}/1/76/edge-cluster/upgrade`, { body: { version: "v1.33.0" } });
    expectCloudError(newest, 400, "ValidationError");
    expect(newest.body.message).toContain("no upgrade is available");
    const missing = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: {} });
    expectCloudError(missing, 400, "ValidationError");
    const tasks = await call(sim.url, "GET", "/cloud/v1/tasks");
    expect(tasks.body.count).toBe(0);
  });

  test("full lifecycle: NEW, lock and 409, RUNNING, FINISHED, Provisioned at the new version", async () => {
    const up = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } });
    expect(up.status).toBe(200);
    expect(up.body.tasks).toHaveLength(1);
    const id: string = up.body.tasks[0];
    const t0 = await call(sim.url, "GET", `/cloud/v1/tasks/${id}`);
    expect(t0.body).toMatchObject({ id, state: "NEW", task_type: "upgrade_k8s_cluster", created_resources: null, finished_on: null, error: null });
    const locked = await call(sim.url, "GET", `${BASE}/1/76/prod-cluster`);
    expect(locked.body.task_id).toBe(id);
    expect(locked.body.version).toBe("v1.30.4");
    const second = await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } });
    expectCloudError(second, 409, "ConflictError");

    advance(1);
    const t1 = await call(sim.url, "GET", `/cloud/v1/tasks/${id}`);
    expect(t1.body.state).toBe("RUNNING");
    expect(t1.body.finished_on).toBeNull();
    advance(29);
    expect((await call(sim.url, "GET", `/cloud/v1/tasks/${id}`)).body.state).toBe("RUNNING");
    expectCloudError(await call(sim.url, "POST", `${BASE}/1/76/prod-cluster/upgrade`, { body: { version: "v1.31.2" } }), 409, "ConflictError");

    advance(1);
    const done = await call(sim.url, "GET", `/cloud/v1/tasks/${id}`);
    expect(done.body.state).toBe("FINISHED");
    expect(done.body.error).toBeNull();
    expect(done.body.finished_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const resources = Object.values(done.body.created_resources as Record<string, unknown[]>);
    expect(resources.length).toBeGreaterThan(10);
    expect(resources.every((v) => Array.isArray(v) && v.length === 0)).toBe(true);
    const after = await call(sim.url, "GET", `${BASE}/1/76/prod-cluster`);
    expect(after.body).toMatchObject({ version: "v1.31.2", status: "Provisioned", task_id: null });
    const next = await call(sim.url, "GET", `${BASE}/1/76/prod-cluster/upgrade_versions`);
    expect(next.body.results).toEqual([{ version: "v1.32.1" }]);
    // other clusters are untouched
    expect((await call(sim.url, "GET", `${BASE}/1/76/demo-cluster`)).body.version).toBe("v1.30.4");
  });

  test("quota failure: ERROR with the exact text, null resources, version unchanged, lock released", async () => {
    const up = await call(sim.url, "POST", `${BASE}/2/76/staging-cluster/upgrade`, { body: { version: "v1.30.4" } });
    expect(up.status).toBe(200);
    const id: string = up.body.tasks[0];
    advance(31);
    const t = await call(sim.url, "GET", `/cloud/v1/tasks/${id}`);
    expect(t.body.state).toBe("ERROR");
    expect(t.body.error).toBe("Quota limit for vm_count exceeded by 2");
    expect(t.body.created_resources).toBeNull();
    const c = await call(sim.url, "GET", `${BASE}/2/76/staging-cluster`);
    expect(c.body).toMatchObject({ version: "v1.29.8", status: "Provisioned", task_id: null });
  });

  test("raising the quota lets the same upgrade succeed", async () => {
    const q = await call(sim.url, "PUT", "/__admin/quotas/2", { key: null, body: { vm_count: 6 } });
    expect(q.status).toBe(200);
    const up = await call(sim.url, "POST", `${BASE}/2/76/staging-cluster/upgrade`, { body: { version: "v1.30.4" } });
    advance(31);
    const t = await call(sim.url, "GET", `/cloud/v1/tasks/${up.body.tasks[0]}`);
    expect(t.body.state).toBe("FINISHED");
    expect((await call(sim.url, "GET", `${BASE}/2/76/staging-cluster`)).body.version).toBe("v1.30.4");
  });
});

describe("upgrade at a high time scale (real clock)", () => {
  let fast: RunningSimulator;
  beforeAll(async () => {
    fast = await start({ timeScale: 1000 });
  });
  afterAll(() => fast.close());

  test("finishes on its own and the cluster is Provisioned at the new version", async () => {
    const up = await call(fast.url, "POST", `${BASE}/1/76/legacy-cluster/upgrade`, { body: { version: "v1.29.8" } });
    expect(up.status).toBe(200);
    const t = await waitTask(fast.url, up.body.tasks[0]);
    expect(t.body.state).toBe("FINISHED");
    const c = await call(fast.url, "GET", `${BASE}/1/76/legacy-cluster`);
    expect(c.body).toMatchObject({ version: "v1.29.8", status: "Provisioned", task_id: null });
  });
});
