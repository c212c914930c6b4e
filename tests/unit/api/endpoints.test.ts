/**
 * Every endpoint of the client against the simulator: paths, query names, body mapping and the
 * camelCase conversion.
 */
import { createClient, type CloudPlatformClient } from "../../../provider/api";
import { startSimulator } from "../../../simulator";
import { admin, newKey } from "./helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let client: CloudPlatformClient;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 50 });
  client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
});

const lastRequest = () => {
  const log = sim.requests();
  const last = log[log.length - 1];
  if (!last) throw new Error("empty request log");
  return last;
};

describe("iam", () => {
  test("clients.me maps the caller", async () => {
    const me = await client.iam.clients.me();
    expect(me).toMatchObject({ id: 7350925, email: "platform@example.com", status: "active", companyName: "Example Co", currentUser: 1023101 });
    expect(lastRequest()).toMatchObject({ method: "GET", path: "/iam/clients/me", status: 200 });
  });
});

describe("cloud", () => {
  test("projects.list maps projects and hides deleted ones", async () => {
    const page = await client.cloud.projects.list();
    expect(page.results.map((p) => p.name)).toEqual(expect.arrayContaining(["default", "staging", "analytics"]));
    expect(page.results.find((p) => p.id === 1)).toMatchObject({ isDefault: true, state: "ACTIVE" });
    expect(page.results.some((p) => p.id === 4)).toBe(false);
    const all = await client.cloud.projects.list({ includeDeleted: true });
    expect(all.results.find((p) => p.id === 4)?.state).toBe("DELETED");
    expect(lastRequest().query).toMatchObject({ include_deleted: "true" });
  });

  test("regions.list maps capabilities", async () => {
    const page = await client.cloud.regions.list({ limit: 100 });
    const lux = page.results.find((r) => r.id === 76);
    expect(lux).toMatchObject({ displayName: "Luxembourg-2", accessLevel: "core", hasK8s: true, hasKvm: true, hasDbaas: true, state: "ACTIVE" });
    expect(page.results.find((r) => r.id === 100)?.state).toBe("MAINTENANCE");
    expect(lastRequest()).toMatchObject({ path: "/cloud/v1/regions", query: { limit: "100" } });
  });

  test("instances.list pages and maps; an empty project is count 0", async () => {
    const page = await client.cloud.instances.list(1, 76, { limit: 10, offset: 20 });
    expect(page.count).toBe(25);
    expect(page.results).toHaveLength(5);
    expect(page.results[0]?.name).toMatch(/^web-\d\d$/);
    expect(lastRequest()).toMatchObject({ path: "/cloud/v1/instances/1/76", query: { limit: "10", offset: "20" } });
    const empty = await client.cloud.instances.list(3, 76);
    expect(empty).toEqual({ count: 0, results: [] });
  });

  test("k8s getCluster, listClusters, upgradeVersions", async () => {
    const c = await client.cloud.k8s.getCluster(1, 76, "prod-cluster");
    expect(c).toMatchObject({ name: "prod-cluster", version: "v1.30.4", status: "Provisioned", taskId: null });
    expect(c.pools[0]?.nodeCount).toBe(3);
    const list = await client.cloud.k8s.listClusters(1, 76);
    expect(list.results.map((x) => x.name).sort()).toEqual(["demo-cluster", "edge-cluster", "legacy-cluster", "prod-cluster"]);
    const versions = await client.cloud.k8s.upgradeVersions(1, 76, "prod-cluster");
    expect(versions).toEqual({ count: 1, results: [{ version: "v1.31.2" }] });
    expect(lastRequest().path).toBe("/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade_versions");
    expect(await client.cloud.k8s.upgradeVersions(1, 76, "edge-cluster")).toEqual({ count: 0, results: [] });
  });

  test("k8s upgrade returns a task that tasks.get and tasks.list can read", async () => {
    const { tasks } = await client.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2");
    expect(tasks).toHaveLength(1);
    const taskId = tasks[0] as string;
    expect(lastRequest()).toMatchObject({ method: "POST", path: "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", status: 200 });
    const task = await client.cloud.tasks.get(taskId);
    expect(task).toMatchObject({ id: taskId, taskType: "upgrade_k8s_cluster", projectId: 1, regionId: 76 });
    expect(["NEW", "RUNNING"]).toContain(task.state);
    expect(task.createdResources).toBeNull();
    expect((await client.cloud.k8s.getCluster(1, 76, "prod-cluster")).taskId).toBe(taskId);
    const listed = await client.cloud.tasks.list({ projectId: [1, 2], state: ["NEW", "RUNNING"], taskType: "upgrade_k8s_cluster", limit: 5 });
    expect(listed.results.map((t) => t.id)).toContain(taskId);
    // Arrays go out as repeated keys.
    expect(lastRequest().query).toMatchObject({ project_id: ["1", "2"], state: ["NEW", "RUNNING"], task_type: "upgrade_k8s_cluster", limit: "5" });
  });

  test("k8s checkPoolQuota sends the pool in wire names and reads the exceeded quotas; {} is none", async () => {
    const exceeded = await client.cloud.k8s.checkPoolQuota(2, 76, { flavorId: "g1-standard-2-4", nodeCount: 3, minNodeCount: 3, maxNodeCount: 3, name: "pool-1" });
    expect(exceeded).toEqual({ exceeded: [{ quota: "vm_count", limit: 4, usage: 3, requested: 3 }] });
    expect(lastRequest()).toMatchObject({ method: "POST", path: "/cloud/v2/k8s/clusters/2/76/pools/check_limits", status: 200 });
    expect(await client.cloud.k8s.checkPoolQuota(1, 76, { flavorId: "g1-standard-2-4", nodeCount: 3 })).toEqual({ exceeded: [] });
  });

  test("path segments are encoded, so a name with '/' addresses one (missing) cluster", async () => {
    await expect(client.cloud.k8s.getCluster(1, 76, "prod-cluster/upgrade_versions")).rejects.toMatchObject({ status: 404 });
    expect(lastRequest().path).toBe("/cloud/v2/k8s/clusters/1/76/prod-cluster%2Fupgrade_versions");
  });
});

describe("storage notifications", () => {
  test("create, list, update, delete", async () => {
    const created = await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 5000 }, { clientId: 42 });
    expect(created).toMatchObject({ name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 5000 });
    expect(created.uuid).toEqual(expect.any(String));
    expect(lastRequest()).toMatchObject({ method: "POST", path: "/storage/notifications/v1/event", query: { client_id: "42" } });

    await client.storage.notifications.create({ name: "reaching_files_quantity", storageName: "media", count: 7 });
    let events = await client.storage.notifications.list();
    expect(events.map((e) => e.name).sort()).toEqual(["reaching_files_quantity", "reaching_used_space"]);
    expect(events.find((e) => e.name === "reaching_files_quantity")?.count).toBe(7);

    await client.storage.notifications.update({ ...created, bytes: 9000 }, { clientId: 42 });
    expect(lastRequest()).toMatchObject({ method: "PUT", status: 204 });
    events = await client.storage.notifications.list();
    expect(events.find((e) => e.uuid === created.uuid)?.bytes).toBe(9000);

    await client.storage.notifications.delete({ name: "reaching_used_space", uuid: created.uuid }, { clientId: 42 });
    expect(lastRequest()).toMatchObject({ method: "DELETE", status: 204 });
    events = await client.storage.notifications.list();
    expect(events.map((e) => e.name)).toEqual(["reaching_files_quantity"]);
  });
});

describe("dns", () => {
  test("delegationStatus maps the spec's field names", async () => {
    const s = await client.dns.delegationStatus("example.com");
    expect(s.zoneExists).toBe(true);
    expect(s.authoritativeNameServers.length).toBeGreaterThan(0);
    expect(s.authoritativeNameServers[0]).toEqual({ name: expect.any(String), ipv4Addresses: expect.any(Array), ipv6Addresses: expect.any(Array) });
    expect(s.serviceAuthorizedCount).toBeGreaterThan(0);
    expect(lastRequest().path).toBe("/dns/v2/analyze/example.com/delegation-status");
    const none = await client.dns.delegationStatus("not-delegated.example");
    expect(none.zoneExists).toBe(false);
  });
});

describe("waap reseller", () => {
  test("totals sends from/to/limit/offset and repeated client_ids", async () => {
    const page = await client.waap.reseller.totals("requests", { clientIds: [101, 102], from: "2026-09-01", to: "2026-09-11", limit: 5, offset: 0 });
    expect(page.limit).toBe(5);
    expect(page.results).toHaveLength(5);
    expect(page.results[0]).toEqual({ date: "2026-09-01", amount: expect.any(Number) });
    expect(lastRequest()).toMatchObject({
      path: "/waap/v1/prebilling/total/requests",
      query: { client_ids: ["101", "102"], from: "2026-09-01", to: "2026-09-11", limit: "5", offset: "0" },
    });
    const all = await client.waap.reseller.totalsAll("domains", { from: "2026-09-01", to: "2026-09-11" }, { pageSize: 3 });
    expect(all.map((r) => r.date)).toHaveLength(10);
  });

  test("ping answers pong", async () => {
    expect(await client.waap.reseller.ping()).toEqual({ message: "pong" });
    expect(lastRequest().path).toBe("/waap/ping");
  });
});

describe("streaming", () => {
  test("aiTasks.list filters, searches and pages", async () => {
    const first = await client.streaming.aiTasks.list({ limit: 10, page: 1 });
    expect(first.count).toBe(27);
    expect(first.next).toBe("page=2");
    expect(first.previous).toBeNull();
    expect(first.results[0]).toMatchObject({ taskId: expect.any(String), taskName: expect.stringMatching(/^(transcription|content-moderation)$/) });
    const failures = await client.streaming.aiTasks.list({ status: "FAILURE", taskName: "transcription", ordering: "task_id" });
    expect(failures.results.every((t) => t.status === "FAILURE" && t.taskName === "transcription")).toBe(true);
    expect(lastRequest().query).toMatchObject({ status: "FAILURE", task_name: "transcription", ordering: "task_id" });
  });
});
