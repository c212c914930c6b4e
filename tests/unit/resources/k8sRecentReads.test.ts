/**
 * One `pulumi up` reads a cluster and its permitted versions once: `check` hands its reads to
 * the `create` that follows, within a short age, and only once.
 */
import { createClient } from "../../../provider/api";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import { createK8sClusterUpgradeLifecycle } from "../../../provider/resources/k8sClusterUpgrade";
import { MAX_AGE_MS, rememberRead, takeRecentRead } from "../../../provider/resources/k8s/recentReads";
import { unknownInputs } from "../../../provider/dynamic/adapter";
import { startSimulator } from "../../../simulator";
import { admin, newKey } from "../api/helpers";

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
const ctx = (): LifecycleContext => ({ client: () => createClient({ baseUrl: sim.url, apiKey: sim.apiKey }), log: () => undefined });
const count = (suffix: string) => sim.requests().filter((r) => r.method === "GET" && r.path.endsWith(suffix)).length;

async function checkThenCreate(clusterName: string, version: string) {
  const news = { projectId: 1, regionId: 76, clusterName, version };
  const checked = await lifecycle.check(ctx(), news, unknownInputs(news));
  expect(checked.failures).toEqual([]);
  return lifecycle.create(ctx(), checked.inputs);
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

  it("a handed-over read is used once and only while fresh", () => {
    const cluster = { name: "c", version: "v1.30.4" } as Parameters<typeof rememberRead>[2];
    rememberRead(1, 76, cluster, ["v1.31.2"], 1_000);
    expect(takeRecentRead(1, 76, "c", 1_000 + MAX_AGE_MS)?.permitted).toEqual(["v1.31.2"]);
    expect(takeRecentRead(1, 76, "c", 1_000 + MAX_AGE_MS)).toBeUndefined();
    rememberRead(1, 76, cluster, undefined, 1_000);
    expect(takeRecentRead(1, 76, "c", 1_001 + MAX_AGE_MS)).toBeUndefined();
  });
});
