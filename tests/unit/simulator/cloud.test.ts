/** Cloud read endpoints: projects, regions, instances, tasks (shapes, filters, paging edges). */
import { RunningSimulator } from "../../../simulator";
import { call, expectCloudError, start, waitTask } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start({ timeScale: 1000 });
});
afterAll(() => sim.close());

describe("projects", () => {
  test("lists active projects with count and results", async () => {
    const r = await call(sim.url, "GET", "/cloud/v1/projects");
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(3);
    expect(r.body.results.map((p: { name: string }) => p.name)).toEqual(["default", "staging", "analytics"]);
    const def = r.body.results[0];
    expect(def).toMatchObject({ id: 1, name: "default", is_default: true, state: "ACTIVE" });
  });

  test("include_deleted, name filter, limit/offset, offset past the end", async () => {
    const all = await call(sim.url, "GET", "/cloud/v1/projects?include_deleted=true");
    expect(all.body.count).toBe(4);
    expect(all.body.results[3]).toMatchObject({ id: 4, name: "old-sandbox", state: "DELETED" });
    const named = await call(sim.url, "GET", "/cloud/v1/projects?name=staging");
    expect(named.body).toMatchObject({ count: 1, results: [{ id: 2 }] });
    const paged = await call(sim.url, "GET", "/cloud/v1/projects?limit=2&offset=1");
    expect(paged.body.count).toBe(3);
    expect(paged.body.results.map((p: { id: number }) => p.id)).toEqual([2, 3]);
    const past = await call(sim.url, "GET", "/cloud/v1/projects?offset=50");
    expect(past.body).toEqual({ count: 3, results: [] });
  });

  test("invalid limit is 400 ValidationError with invalid_fields", async () => {
    for (const q of ["limit=0", "limit=1001", "limit=abc", "offset=-1"]) {
      const r = await call(sim.url, "GET", `/cloud/v1/projects?${q}`);
      expectCloudError(r, 400, "ValidationError");
      expect(Object.keys(r.body.invalid_fields)).toHaveLength(1);
    }
  });
});

describe("regions", () => {
  test("lists every region with the spec fields", async () => {
    const r = await call(sim.url, "GET", "/cloud/v1/regions");
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(5);
    const lux = r.body.results.find((x: { id: number }) => x.id === 76);
    expect(lux).toMatchObject({ display_name: "Luxembourg-2", state: "ACTIVE", access_level: "core", zone: "EMEA", has_k8s: true, has_kvm: true, has_dbaas: true });
    expect(Array.isArray(lux.available_volume_types)).toBe(true);
    const states = Object.fromEntries(r.body.results.map((x: { id: number; state: string }) => [x.id, x.state]));
    expect(states).toEqual({ 76: "ACTIVE", 38: "ACTIVE", 8: "ACTIVE", 100: "MAINTENANCE", 116: "INACTIVE" });
  });

  test("display_name (case-insensitive exact), limit, offset", async () => {
    const r = await call(sim.url, "GET", "/cloud/v1/regions?display_name=frankfurt");
    expect(r.body).toMatchObject({ count: 1, results: [{ id: 38, has_dbaas: false }] });
    const none = await call(sim.url, "GET", "/cloud/v1/regions?display_name=Frank");
    expect(none.body).toEqual({ count: 0, results: [] });
    const paged = await call(sim.url, "GET", "/cloud/v1/regions?limit=2&offset=4");
    expect(paged.body.count).toBe(5);
    expect(paged.body.results).toHaveLength(1);
  });
});

describe("instances", () => {
  test("default limit 1000 returns all 25 of project 1 region 76", async () => {
    const r = await call(sim.url, "GET", "/cloud/v1/instances/1/76");
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(25);
    expect(r.body.results).toHaveLength(25);
    expect(r.body.results[0]).toMatchObject({ name: "web-01", status: "ACTIVE" });
    expect(typeof r.body.results[0].id).toBe("string");
  });

  test("paging, offset past the end, empty project, other project", async () => {
    const p = await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=10&offset=20");
    expect(p.body.count).toBe(25);
    expect(p.body.results.map((i: { name: string }) => i.name)).toEqual(["web-21", "web-22", "web-23", "web-24", "web-25"]);
    const past = await call(sim.url, "GET", "/cloud/v1/instances/1/76?offset=25");
    expect(past.body).toEqual({ count: 25, results: [] });
    const empty = await call(sim.url, "GET", "/cloud/v1/instances/3/76");
    expect(empty.body).toEqual({ count: 0, results: [] });
    const two = await call(sim.url, "GET", "/cloud/v1/instances/2/76");
    expect(two.body.count).toBe(3);
  });

  test("unknown project or region is 404; bad limit is 400", async () => {
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/instances/999/76"), 404, "NotFoundError");
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/instances/1/999"), 404, "NotFoundError");
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=1001"), 400, "ValidationError");
    // The status filter takes the public OpenAPI's InstanceStatusQuery, not every reported status.
    for (const status of ["RESCUE", "DELETED", "PASSWORD", "UNKNOWN"]) {
      expectCloudError(await call(sim.url, "GET", `/cloud/v1/instances/1/76?status=${status}`), 400, "ValidationError");
    }
    expect((await call(sim.url, "GET", "/cloud/v1/instances/1/76?status=SOFT_DELETED")).status).toBe(200);
  });
});

describe("tasks", () => {
  test("unknown task is 404 NotFoundError", async () => {
    const r = await call(sim.url, "GET", "/cloud/v1/tasks/00000000-0000-4000-8000-000000000000");
    expectCloudError(r, 404, "NotFoundError");
  });

  test("list filters (project_id, region_id repeatable; state repeatable; task_type) and paging", async () => {
    sim.reset();
    const a = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { body: { version: "v1.31.2" } });
    const b = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/2/76/staging-cluster/upgrade", { body: { version: "v1.30.4" } });
    const c = await call(sim.url, "POST", "/__admin/tasks", { key: null, body: { task_type: "create_vm", project_id: 3, region_id: 38 } });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const all = await call(sim.url, "GET", "/cloud/v1/tasks");
    expect(all.body.count).toBe(3);
    const p1 = await call(sim.url, "GET", "/cloud/v1/tasks?project_id=1");
    expect(p1.body.results.map((t: { id: string }) => t.id)).toEqual(a.body.tasks);
    const p12 = await call(sim.url, "GET", "/cloud/v1/tasks?project_id=1&project_id=2");
    expect(p12.body.count).toBe(2);
    const r38 = await call(sim.url, "GET", "/cloud/v1/tasks?region_id=38&region_id=8");
    expect(r38.body.count).toBe(1);
    expect(r38.body.results[0].task_type).toBe("create_vm");
    const typed = await call(sim.url, "GET", "/cloud/v1/tasks?task_type=upgrade_k8s_cluster");
    expect(typed.body.count).toBe(2);
    // The public OpenAPI's filter value for the upgrade finds the tasks that report the spec's name.
    const typedV2 = await call(sim.url, "GET", "/cloud/v1/tasks?task_type=upgrade_k8s_cluster_v2");
    expect(typedV2.body.results.map((t: { id: string }) => t.id).sort()).toEqual([...a.body.tasks, ...b.body.tasks].sort());
    expect((await call(sim.url, "GET", "/cloud/v1/tasks?task_type=create_vm_v2")).body.count).toBe(0);
    const limited = await call(sim.url, "GET", "/cloud/v1/tasks?limit=1&offset=2");
    expect(limited.body.count).toBe(3);
    expect(limited.body.results).toHaveLength(1);
    const past = await call(sim.url, "GET", "/cloud/v1/tasks?offset=3");
    expect(past.body).toEqual({ count: 3, results: [] });
    for (const id of [...a.body.tasks, ...b.body.tasks, ...c.body.tasks]) await call(sim.url, "POST", `/__admin/tasks/${id}/finish`, { key: null });
    const finished = await call(sim.url, "GET", "/cloud/v1/tasks?state=FINISHED");
    expect(finished.body.count).toBe(2);
    const errored = await call(sim.url, "GET", "/cloud/v1/tasks?state=ERROR");
    expect(errored.body.count).toBe(1);
    const both = await call(sim.url, "GET", "/cloud/v1/tasks?state=ERROR&state=FINISHED");
    expect(both.body.count).toBe(3);
    const running = await call(sim.url, "GET", "/cloud/v1/tasks?state=RUNNING&state=NEW");
    expect(running.body.count).toBe(0);
  });

  test("list rejects bad state and limit out of range (default 10, max 1000)", async () => {
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/tasks?state=DONE"), 400, "ValidationError");
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/tasks?limit=1001"), 400, "ValidationError");
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/tasks?limit=0"), 400, "ValidationError");
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/tasks?project_id=x"), 400, "ValidationError");
    sim.reset();
    for (let i = 0; i < 12; i++) await call(sim.url, "POST", "/__admin/tasks", { key: null, body: { task_type: "create_vm" } });
    const def = await call(sim.url, "GET", "/cloud/v1/tasks");
    expect(def.body.count).toBe(12);
    expect(def.body.results).toHaveLength(10);
    const max = await call(sim.url, "GET", "/cloud/v1/tasks?limit=1000");
    expect(max.body.results).toHaveLength(12);
  });

  test("a task goes NEW -> RUNNING -> FINISHED with the documented fields", async () => {
    sim.reset();
    const c = await call(sim.url, "POST", "/__admin/tasks", {
      key: null,
      body: { task_type: "create_vm", project_id: 1, region_id: 76, created_resources: { instances: ["i-1"] } },
    });
    const id: string = c.body.tasks[0];
    const first = await call(sim.url, "GET", `/cloud/v1/tasks/${id}`);
    expect(["NEW", "RUNNING", "FINISHED"]).toContain(first.body.state);
    expect(first.body.created_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const done = await waitTask(sim.url, id);
    expect(done.body).toMatchObject({ id, task_type: "create_vm", state: "FINISHED", error: null, project_id: 1, region_id: 76 });
    expect(done.body.finished_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(done.body.created_resources.instances).toEqual(["i-1"]);
    expect(done.body.created_resources.volumes).toEqual([]);
  });
});
