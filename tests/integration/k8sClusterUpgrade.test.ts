/**
 * K8sClusterUpgrade through real `pulumi up` / `preview` / `refresh` runs (Automation API)
 * against the simulator. A killed run is in tests/reliability/interruptions.test.ts.
 *
 * Needs `npx tsc -p tsconfig.json` first: the dynamic-provider process loads `dist/` through
 * the package's self-link (`pulumi-cloudplatform/internal/dynamic`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { K8sClusterUpgrade } from "../../sdk/nodejs";
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { backendFiles, keyLeaksInState } from "./stateSecrets";
import { createTestStack, resourcesByName, type TestStack } from "./harness";

jest.setTimeout(600_000);

type Sim = Awaited<ReturnType<typeof startSimulator>>;

const PROJECT = "k8s-upgrade-it";
const LOG_PREFIX = "[cloudplatform] K8sClusterUpgrade:";

/** What a test stack declares; every field becomes project config read by the program. */
interface Declared {
  projectId?: number;
  clusterName: string;
  version: string;
  allowMultiStep?: boolean;
}

function stackConfig(sim: Sim, d: Declared): ConfigMap {
  return {
    "cloudplatform:baseUrl": { value: sim.url },
    "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
    [`${PROJECT}:projectId`]: { value: String(d.projectId ?? 1) },
    [`${PROJECT}:clusterName`]: { value: d.clusterName },
    [`${PROJECT}:version`]: { value: d.version },
    [`${PROJECT}:allowMultiStep`]: { value: String(d.allowMultiStep ?? false) },
  };
}

/** The test program: one K8sClusterUpgrade named `cluster`, configured from stack config. */
async function program(): Promise<Record<string, unknown>> {
  const c = new pulumi.Config();
  const upgrade = new K8sClusterUpgrade("cluster", {
    projectId: c.requireNumber("projectId"),
    regionId: 76,
    clusterName: c.require("clusterName"),
    version: c.require("version"),
    allowMultiStep: c.requireBoolean("allowMultiStep"),
  });
  return {
    version: upgrade.version,
    previousVersion: upgrade.previousVersion,
    upgradePath: upgrade.upgradePath,
    taskIds: upgrade.taskIds,
    status: upgrade.status,
  };
}

const upgradePosts = (sim: Sim, cluster: string, projectId = 1) =>
  sim.requests().filter((r) => r.method === "POST" && r.path === `/cloud/v2/k8s/clusters/${projectId}/76/${cluster}/upgrade`);
const writes = (sim: Sim) => sim.requests().filter((r) => r.method !== "GET");
const liveCluster = (sim: Sim, name: string) => {
  const c = sim.state().clusters.find((x) => x.name === name);
  if (!c) throw new Error(`no cluster ${name} in the simulator`);
  return c;
};

/** The stored outputs of the `cluster` resource. */
async function recorded(stack: Stack): Promise<Record<string, any>> {
  const r = (await resourcesByName(stack)).get("cluster");
  if (!r) throw new Error("the stack records no `cluster` resource");
  return r.outputs as Record<string, any>;
}

/** After every up: a preview shows no changes and a refresh finds none. */
async function expectConverged(stack: Stack): Promise<void> {
  const preview = await stack.preview({ color: "never" });
  expect(preview.changeSummary).toEqual({ same: 2 });
  const refresh = await stack.refresh({ color: "never" });
  expect(refresh.summary.resourceChanges).toEqual({ same: 2 });
}

async function rejectionMessage(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return String((err as Error).message);
  }
  throw new Error("expected the operation to fail, but it succeeded");
}

describe("K8sClusterUpgrade (simulator at 20x)", () => {
  let sim: Sim;
  const stacks: TestStack[] = [];

  async function newStack(d: Declared): Promise<TestStack> {
    const t = await createTestStack({ projectName: PROJECT, program, config: stackConfig(sim, d) });
    stacks.push(t);
    return t;
  }

  beforeAll(async () => {
    sim = await startSimulator({ apiKey: newKey(), timeScale: 20 });
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    await admin(sim.url, "POST", "/reset");
  });
  // The next test resets the simulator, so what a stack holds there needs no destroy.
  afterEach(() => {
    for (const t of stacks.splice(0)) t.discard();
  });

  it("upgrades one minor step with progress in the output, keeps the key and axios out of state, and is converged after", async () => {
    const { stack, backendUrl } = await newStack({ clusterName: "prod-cluster", version: "v1.31.2" });
    let output = "";
    const up = await stack.up({ color: "never", onOutput: (s) => (output += s) });
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs["version"]?.value).toBe("v1.31.2");
    expect(up.outputs["previousVersion"]?.value).toBe("v1.30.4");
    expect(up.outputs["upgradePath"]?.value).toEqual(["v1.31.2"]);
    expect(up.outputs["status"]?.value).toBe("Provisioned");
    expect(upgradePosts(sim, "prod-cluster")).toHaveLength(1);
    expect(liveCluster(sim, "prod-cluster").version).toBe("v1.31.2");

    // Progress while the task ran, as lines of the up output.
    const taskId = (up.outputs["taskIds"]?.value as string[])[0];
    expect(output).toContain(`${LOG_PREFIX} prod-cluster: upgrade to v1.31.2 RUNNING,`);
    expect(output).toMatch(new RegExp(`${LOG_PREFIX.replace(/[[\]]/g, "\\$&")} prod-cluster: upgrade to v1\\.31\\.2 RUNNING, \\d+s elapsed \\(task ${taskId}\\)`));
    expect(output).not.toContain(sim.apiKey);

    // Secrets: the state as stored (secrets encrypted) holds neither the key nor axios.
    const stored = backendFiles(backendUrl).map((f) => f.text).join("\n");
    expect(stored).toContain("prod-cluster");
    expect(stored).not.toContain("axios");
    expect(await keyLeaksInState(stack, backendUrl, sim.apiKey)).toEqual([]);
    // Decrypted (`stack export --show-secrets`), the key appears only as the engine's secret
    // copy of the stack config on its default nodejs provider, never in our resource.
    const exported = await stack.exportStack();
    expect(JSON.stringify(exported)).not.toContain("axios");
    const resource = (await resourcesByName(stack)).get("cluster");
    const serialized = String(resource?.inputs?.__provider ?? "");
    const size = Buffer.byteLength(serialized, "utf8");
    console.log(`K8sClusterUpgrade __provider: ${size} bytes`);
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThan(4096);
    expect(resource?.outputs?.__provider).toBe(serialized);

    await expectConverged(stack);
    expect(upgradePosts(sim, "prod-cluster")).toHaveLength(1);
  });

  it("raising the version again updates in place, never replaces", async () => {
    const { stack } = await newStack({ clusterName: "prod-cluster", version: "v1.31.2" });
    await stack.up({ color: "never" });
    await stack.setConfig(`${PROJECT}:version`, { value: "v1.32.1" });

    const preview = await stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ same: 1, update: 1 });
    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(up.outputs["version"]?.value).toBe("v1.32.1");
    expect(up.outputs["previousVersion"]?.value).toBe("v1.31.2");
    expect(up.outputs["upgradePath"]?.value).toEqual(["v1.32.1"]);
    expect(upgradePosts(sim, "prod-cluster")).toHaveLength(2);
    expect((await recorded(stack))["version"]).toBe("v1.32.1");
    await expectConverged(stack);
  });

  it("shows a version changed out of band as drift on preview --refresh", async () => {
    const { stack } = await newStack({ clusterName: "demo-cluster", version: "v1.31.2" });
    await stack.up({ color: "never" });
    await expectConverged(stack);

    // Changed elsewhere to an older version: refresh sees it, and an update is planned.
    await admin(sim.url, "PATCH", "/clusters/1/76/demo-cluster", { version: "v1.30.4" });
    const drift = await stack.preview({ color: "never", refresh: true });
    expect(drift.changeSummary).toEqual({ same: 1, update: 1 });
    const plain = await stack.preview({ color: "never" });
    expect(plain.changeSummary).toEqual({ same: 2 }); // without refresh the stored state still says v1.31.2
    const up = await stack.up({ color: "never", refresh: true });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(liveCluster(sim, "demo-cluster").version).toBe("v1.31.2");
    expect(upgradePosts(sim, "demo-cluster")).toHaveLength(2);

    // Upgraded elsewhere past the declared version: refresh records the live version; the
    // declared one is now a downgrade, which preview --refresh reports naming the live version.
    await admin(sim.url, "PATCH", "/clusters/1/76/demo-cluster", { version: "v1.32.1" });
    const message = await rejectionMessage(stack.preview({ color: "never", refresh: true }));
    expect(message).toContain("version v1.31.2 is a downgrade: cluster demo-cluster runs v1.32.1");
    const refresh = await stack.refresh({ color: "never" });
    expect(refresh.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect((await recorded(stack))["version"]).toBe("v1.32.1");
    await stack.setConfig(`${PROJECT}:version`, { value: "v1.32.1" });
    await expectConverged(stack);
    expect(upgradePosts(sim, "demo-cluster")).toHaveLength(2);
  });

  it("rejects an unreachable target at preview and a downgrade at up, naming the permitted versions, without any write", async () => {
    const { stack } = await newStack({ clusterName: "prod-cluster", version: "v1.32.1" });
    const unreachable = await rejectionMessage(stack.preview({ color: "never" }));
    expect(unreachable).toContain("version v1.32.1 cannot be reached in one step from v1.30.4");
    expect(unreachable).toContain("may be upgraded now only to v1.31.2");
    expect(unreachable).toContain("allowMultiStep: true");

    // The downgrade and a malformed version fail the same way: tests/reliability/badInput.test.ts.
    // up runs the same check first, so it fails before writing too.
    await stack.setConfig(`${PROJECT}:version`, { value: "v1.29.8" });
    const downgrade = await rejectionMessage(stack.up({ color: "never" }));
    expect(downgrade).toContain("version v1.29.8 is a downgrade: cluster prod-cluster runs v1.30.4");
    expect(downgrade).toContain("Permitted next versions: v1.31.2");

    expect(sim.requests().some((r) => r.path.endsWith("/upgrade_versions"))).toBe(true);
    expect(writes(sim)).toEqual([]);
    expect(liveCluster(sim, "prod-cluster").version).toBe("v1.30.4");
  });

  it("with allowMultiStep steps legacy-cluster across two minors, one task after the other", async () => {
    const { stack } = await newStack({ clusterName: "legacy-cluster", version: "v1.30.4", allowMultiStep: true });
    const preview = await stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ create: 2 });
    const up = await stack.up({ color: "never" });
    expect(up.outputs["upgradePath"]?.value).toEqual(["v1.29.8", "v1.30.4"]);
    expect(up.outputs["previousVersion"]?.value).toBe("v1.28.12");
    expect(up.outputs["version"]?.value).toBe("v1.30.4");

    expect(upgradePosts(sim, "legacy-cluster")).toHaveLength(2);
    const taskIds = up.outputs["taskIds"]?.value as string[];
    expect(taskIds).toHaveLength(2);
    const tasks = taskIds.map((id) => {
      const t = sim.state().tasks.find((x) => x.id === id);
      if (!t) throw new Error(`task ${id} unknown to the simulator`);
      return t;
    });
    expect(tasks.map((t) => [t.data?.["from_version"], t.data?.["version"]])).toEqual([
      ["v1.28.12", "v1.29.8"],
      ["v1.29.8", "v1.30.4"],
    ]);
    expect(tasks[1]!.createdAt).toBeGreaterThanOrEqual(tasks[0]!.doneAt);
    await expectConverged(stack);
  });
});
