/**
 * One `pulumi up` reads a cluster and its permitted versions once: `check` hands its reads to
 * the `create` that follows, within a short age, and only once.
 */
import { createClient } from "../../../provider/api";
import { createK8sClusterUpgradeLifecycle } from "../../../provider/resources/k8sClusterUpgrade";
import { ClusterReadHandover, MAX_AGE_MS } from "../../../provider/resources/k8s/recentReads";
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { startSimulator } from "../../../simulator";
import { admin, newKey } from "../api/helpers";
import type { RunState } from "../../../provider/resources/runState";
import { contextOf, quickRun } from "./context";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 40 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
  await admin(sim.url, "DELETE", "/requests");
});

const lifecycle = createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } });
const ctxIn = (run: RunState) => contextOf(createClient({ baseUrl: sim.url, apiKey: sim.apiKey }), undefined, run);
const count = (suffix: string) => sim.requests().filter((r) => r.method === "GET" && r.path.endsWith(suffix)).length;

/** check and create in one run, as one `pulumi up` calls them. */
async function checkThenCreate(clusterName: string, version: string, run = quickRun()) {
  const news = { projectId: 1, regionId: 76, clusterName, version };
  const checked = await lifecycle.check(ctxIn(run), news, unknownInputs(news));
  expect(checked.failures).toEqual([]);
  return lifecycle.create(ctxIn(run), checked.inputs);
}

describe("reads handed from check to create", () => {
  it("an upgrade reads the cluster twice (before and after) and the versions once", async () => {
    const { outs } = await checkThenCreate("prod-cluster", "v1.31.2");
    expect(outs.version).toBe("v1.31.2");
    expect(count("/prod-cluster")).toBe(2);
    expect(count("/prod-cluster/upgrade_versions")).toBe(1);
  });

  it("a cluster already at the target is read once", async () => {
    await checkThenCreate("edge-cluster", "v1.32.1");
    expect(count("/edge-cluster")).toBe(1);
    expect(count("/edge-cluster/upgrade_versions")).toBe(0);
  });

  it("reads of one run are not handed to another run", async () => {
    const checkRun = quickRun();
    const news = { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" };
    const checked = await lifecycle.check(ctxIn(checkRun), news, unknownInputs(news));
    await lifecycle.create(ctxIn(quickRun()), checked.inputs);
    expect(count("/prod-cluster")).toBe(3);
    expect(count("/prod-cluster/upgrade_versions")).toBe(2);
  });

  it("a handed-over read is used once and only while fresh", () => {
    let now = 1_000;
    const reads = new ClusterReadHandover(() => now);
    const cluster = { name: "c", version: "v1.30.4" } as Parameters<ClusterReadHandover["remember"]>[2];
    reads.remember(1, 76, cluster, ["v1.31.2"]);
    now += MAX_AGE_MS;
    expect(reads.take(1, 76, "c")?.permitted).toEqual(["v1.31.2"]);
    expect(reads.take(1, 76, "c")).toBeUndefined();
    now = 1_000;
    reads.remember(1, 76, cluster);
    now += MAX_AGE_MS + 1;
    expect(reads.take(1, 76, "c")).toBeUndefined();
  });
});

describe("a refresh read handed to the check that follows (up --refresh)", () => {
  const news = { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" };

  it("read, check and update of one cluster in one run read it once before the upgrade", async () => {
    const run = quickRun();
    const created = await checkThenCreate("prod-cluster", "v1.30.4");
    await admin(sim.url, "DELETE", "/requests");
    const refreshed = await lifecycle.read(ctxIn(run), created.id, created.outs);
    expect(refreshed?.outs.version).toBe("v1.30.4");
    const checked = await lifecycle.check(ctxIn(run), news, unknownInputs(news));
    expect(checked.failures).toEqual([]);
    const updated = await lifecycle.update(ctxIn(run), created.id, created.outs, checked.inputs);
    expect(updated.version).toBe("v1.31.2");
    // one read shared by refresh, check and the start of the update, one after the upgrade
    expect(count("/prod-cluster")).toBe(2);
    expect(count("/prod-cluster/upgrade_versions")).toBe(1);
  });

  it("a read older than the age limit is not used by check, and read itself always asks the API", async () => {
    let now = 1_000_000;
    const run = quickRun({ now: () => now });
    const outs = { ...news, version: "v1.30.6", allowMultiStep: false, timeoutMinutes: 60, clusterId: "x", status: "Provisioned", previousVersion: "v1.30.6", upgradePath: [], taskIds: [] };
    await lifecycle.read(ctxIn(run), "1/76/prod-cluster", outs as never);
    await lifecycle.read(ctxIn(run), "1/76/prod-cluster", outs as never);
    expect(count("/prod-cluster")).toBe(2);
    now += MAX_AGE_MS + 1;
    await lifecycle.check(ctxIn(run), news, unknownInputs(news));
    expect(count("/prod-cluster")).toBe(3);
  });

  it("a check that reuses a read passes on its age: a chain of reuses never hands on a read older than the limit", async () => {
    let now = 1_000_000;
    const run = quickRun({ now: () => now });
    const outs = { ...news, version: "v1.30.6", allowMultiStep: false, timeoutMinutes: 60, clusterId: "x", status: "Provisioned", previousVersion: "v1.30.6", upgradePath: [], taskIds: [] };
    await lifecycle.read(ctxIn(run), "1/76/prod-cluster", outs as never);
    now += MAX_AGE_MS - 1;
    await lifecycle.check(ctxIn(run), news, unknownInputs(news));
    expect(count("/prod-cluster")).toBe(1);
    now += 2;
    await lifecycle.check(ctxIn(run), news, unknownInputs(news));
    expect(count("/prod-cluster")).toBe(2);
  });
});
