/**
 * Every example runs through `up`, a no-change `preview`, and `destroy` against the simulator,
 * as real non-inline programs (language host, ts-node, the installed package).
 */
import { startSimulator } from "../../simulator";
import { createExampleStack } from "./exampleStack";
import { expectWavesInOrder, FLEET_WAVES } from "./fleetExpectations";
import { keyLeaksInState } from "./stateSecrets";

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

async function runExample(sim: Simulator, name: string, config: Record<string, string> = {}) {
  const t = await createExampleStack(name, {
    config: {
      "cloudplatform:baseUrl": { value: sim.url },
      "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
      ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])),
    },
  });
  try {
    const up = await t.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    const preview = await t.stack.preview({ color: "never", diff: true });
    expect(Object.keys(preview.changeSummary).filter((k) => k !== "same")).toEqual([]);
    expect(await keyLeaksInState(t.stack, t.backendUrl, sim.apiKey)).toEqual([]);
    const destroy = await t.stack.destroy({ color: "never" });
    expect(destroy.summary.result).toBe("succeeded");
    return up.outputs;
  } finally {
    await t.cleanup();
  }
}

describe("examples", () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ timeScale: 30 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it("quickstart upgrades demo-cluster one minor step and creates two thresholds", async () => {
    const outputs = await runExample(sim, "quickstart");
    expect(outputs.projectName?.value).toBe("default");
    expect(outputs.regionDisplayName?.value).toBe("Luxembourg-2");
    expect(outputs.clusterNames?.value).toEqual(["prod-cluster", "demo-cluster", "legacy-cluster", "edge-cluster"]);
    expect(outputs.clusterRunning?.value).toBe("v1.31.2");
    expect(outputs.clusterPreviousVersion?.value).toBe("v1.30.4");
    expect(outputs.storageSpaceEvent?.value).toEqual(expect.any(String));
    // destroy deleted the thresholds and left the cluster at its new version
    const events = await (await fetch(`${sim.url}/storage/notifications/v1/events`, {
      headers: { Authorization: `apikey ${sim.apiKey}` },
    })).json();
    expect(Object.values(events as Record<string, unknown[]>).flat()).toEqual([]);
  });

  it("multi-step-upgrade walks legacy-cluster across two minor versions", async () => {
    const outputs = await runExample(sim, "multi-step-upgrade");
    expect(outputs.upgradePath?.value).toEqual(["v1.29.8", "v1.30.4"]);
    expect(outputs.taskIds?.value).toHaveLength(2);
  });

  it("fleet-upgrade upgrades the five clusters of project 3 in three waves, each only after the one before is upgraded and soaked", async () => {
    const outputs = await runExample(sim, "fleet-upgrade", { soakSeconds: "1" });
    expect(outputs.waves?.value).toEqual(FLEET_WAVES);
    expect(outputs.versions?.value).toEqual(Object.fromEntries(FLEET_WAVES.flat().map((name) => [name, "v1.31.2"])));
    expectWavesInOrder(sim.state(), "v1.31.2");
  });

  it("reseller-report totals every metric and reports delegation", async () => {
    const outputs = await runExample(sim, "reseller-report", { month: "2026-10" });
    const totals = outputs.totalsByMetric?.value as Record<string, number>;
    expect(Object.keys(totals).sort()).toEqual(["domains", "requests", "requests_clean", "volume"]);
    for (const amount of Object.values(totals)) expect(amount).toBeGreaterThan(0);
    expect(outputs.delegationByDomain?.value["example.com"].zoneExists).toBe(true);
    expect(outputs.delegationByDomain?.value["not-delegated.example"].zoneExists).toBe(false);
    expect(outputs.resellerService?.value).toBe("pong");
  });
});
