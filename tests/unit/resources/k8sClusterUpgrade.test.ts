/**
 * The K8sClusterUpgrade lifecycle against the simulator, without Pulumi: preview-time checks
 * (and that they never write), diff decisions, the upgrade runner (one step, several steps,
 * quota failure, a lock from an interrupted run, a lost POST answer), read and delete.
 */
import { createClient, type CloudPlatformClient } from "../../../provider/api";
import { TaskFailedError, TaskTimeoutError } from "../../../provider/tasks";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import {
  createK8sClusterUpgradeLifecycle,
  type K8sClusterUpgradeInputs,
  type K8sClusterUpgradeOutputs,
} from "../../../provider/resources/k8sClusterUpgrade";
import { UpgradeRejectedError } from "../../../provider/resources/k8s/upgrade";
import { PartialResourceError } from "../../../provider/resources/partial";
import { UNKNOWN_VALUE, unknownInputs } from "../../../provider/adapters/unknownValues";
import { startSimulator } from "../../../simulator";
import { admin, newKey, rejectionOf } from "../api/helpers";
import { contextOf } from "./context";
import { StoppableClock } from "./stoppableClock";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

/** The simulator's time; a test stops it where "the task is still running" must hold. */
const simClock = new StoppableClock();

// 40 simulated seconds per real second: one upgrade task (30 s simulated) takes under a second.
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 40, now: simClock.now });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  simClock.go();
  await admin(sim.url, "POST", "/reset");
});

const lifecycle = createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } });

function context(client: CloudPlatformClient = createClient({ baseUrl: sim.url, apiKey: sim.apiKey })) {
  const lines: string[] = [];
  const ctx: LifecycleContext = contextOf(client, (m) => lines.push(m));
  return { ctx, lines };
}

function inputs(over: Partial<K8sClusterUpgradeInputs> = {}): K8sClusterUpgradeInputs {
  return { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2", allowMultiStep: false, timeoutMinutes: 60, soakSeconds: 0, ...over };
}

const writes = () => sim.requests().filter((r) => r.method !== "GET");
const upgradePosts = (cluster: string) => sim.requests().filter((r) => r.method === "POST" && r.path.endsWith(`/${cluster}/upgrade`));
const clusterOf = (name: string) => {
  const c = sim.state().clusters.find((x) => x.name === name);
  if (!c) throw new Error(`no cluster ${name}`);
  return c;
};

async function check(news: Record<string, unknown>) {
  const { ctx } = context();
  return lifecycle.check(ctx, news, unknownInputs(news));
}

describe("check", () => {
  it("rejects a malformed version, naming the field and the shape, without calling the API", async () => {
    for (const version of ["1.31.2", "v1.31", "v1.31.2-rc1", "latest", 131]) {
      const r = await check({ ...inputs(), version });
      expect(r.failures).toHaveLength(1);
      expect(r.failures[0]?.property).toBe("version");
      expect(r.failures[0]?.reason).toMatch(/^version must have the shape v<major>\.<minor>\.<patch>/);
    }
    expect(sim.requests()).toEqual([]);
  });

  it("rejects ids that are not positive integers and a missing cluster name", async () => {
    const r = await check({ projectId: 1.5, regionId: "76", clusterName: "", version: "v1.31.2" });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["clusterName", "projectId", "regionId"]);
    expect(sim.requests()).toEqual([]);
  });

  it("fills the defaults of the optional inputs and drops output-only keys", async () => {
    const r = await check({ projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2", clusterId: undefined });
    expect(r.failures).toEqual([]);
    // soakSeconds stays absent: its default (no watch) is never written into the stack.
    const { soakSeconds: _absent, ...withDefaults } = inputs();
    expect(r.inputs).toEqual(withDefaults);
  });

  it("accepts a target the API permits now, and the version the cluster already runs", async () => {
    expect((await check({ ...inputs() })).failures).toEqual([]);
    expect((await check({ ...inputs({ version: "v1.30.4" }) })).failures).toEqual([]);
    expect((await check({ ...inputs({ clusterName: "edge-cluster", version: "v1.32.1" }) })).failures).toEqual([]);
  });

  it("rejects a downgrade naming the current and the permitted next versions", async () => {
    const r = await check({ ...inputs({ version: "v1.29.8" }) });
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]?.property).toBe("version");
    expect(r.failures[0]?.reason).toContain("downgrade");
    expect(r.failures[0]?.reason).toContain("runs v1.30.4");
    expect(r.failures[0]?.reason).toContain("Permitted next versions: v1.31.2");
  });

  it("rejects a patch downgrade and says when no upgrade is available at all", async () => {
    const r = await check({ ...inputs({ clusterName: "edge-cluster", version: "v1.32.0" }) });
    expect(r.failures[0]?.reason).toContain("runs v1.32.1");
    expect(r.failures[0]?.reason).toContain("none (no upgrade is available)");
  });

  it("rejects a target two minors away unless allowMultiStep, pointing to allowMultiStep", async () => {
    const r = await check({ ...inputs({ version: "v1.32.1" }) });
    expect(r.failures[0]?.property).toBe("version");
    expect(r.failures[0]?.reason).toContain("cannot be reached in one step from v1.30.4");
    expect(r.failures[0]?.reason).toContain("only to v1.31.2");
    expect(r.failures[0]?.reason).toContain("allowMultiStep: true");
    expect((await check({ ...inputs({ version: "v1.32.1", allowMultiStep: true }) })).failures).toEqual([]);
  });

  it("rejects, even with allowMultiStep, a patch the next minor does not offer and a newer patch of the same minor", async () => {
    const nextMinor = await check({ ...inputs({ version: "v1.31.0", allowMultiStep: true }) });
    expect(nextMinor.failures[0]?.reason).toContain("only to v1.31.2");
    const samePatch = await check({ ...inputs({ version: "v1.30.9", allowMultiStep: true }) });
    expect(samePatch.failures[0]?.reason).toContain("cannot be reached from v1.30.4");
  });

  it("names a cluster that does not exist on clusterName", async () => {
    const r = await check({ ...inputs({ clusterName: "no-such-cluster" }) });
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]?.property).toBe("clusterName");
    expect(r.failures[0]?.reason).toContain("no-such-cluster was not found in project 1, region 76");
  });

  it("makes no API call while an identity input or the version is unknown", async () => {
    for (const key of ["projectId", "regionId", "clusterName", "version"]) {
      const r = await check({ ...inputs({ version: "v1.29.8" }), [key]: UNKNOWN_VALUE });
      expect(r.failures).toEqual([]);
    }
    expect(sim.requests()).toEqual([]);
  });

  it("judges the target as multi-step when allowMultiStep is unknown, and still rejects a downgrade", async () => {
    expect((await check({ ...inputs({ version: "v1.32.1" }), allowMultiStep: UNKNOWN_VALUE })).failures).toEqual([]);
    const down = await check({ ...inputs({ version: "v1.29.8" }), allowMultiStep: UNKNOWN_VALUE });
    expect(down.failures[0]?.reason).toContain("downgrade");
  });

  it("never writes, whatever it judges: its one POST is the quota check, which changes nothing", async () => {
    await check({ ...inputs() });
    await check({ ...inputs({ version: "v1.29.8" }) });
    await check({ ...inputs({ version: "v1.32.1" }) });
    expect(sim.requests().length).toBeGreaterThan(0);
    expect(writes().map((r) => `${r.method} ${r.path}`)).toEqual(["POST /cloud/v2/k8s/clusters/1/76/pools/check_limits"]);
    expect(sim.state().tasks).toEqual([]);
  });
});

describe("diff", () => {
  const olds: K8sClusterUpgradeOutputs = {
    ...inputs({ version: "v1.31.2" }),
    clusterId: "c",
    status: "Provisioned",
    previousVersion: "v1.30.4",
    upgradePath: ["v1.31.2"],
    taskIds: ["t"],
  };
  const id = "1/76/prod-cluster";

  it("finds no change when the inputs are the same", async () => {
    expect(await lifecycle.diff(id, olds, inputs({ version: "v1.31.2" }))).toEqual({ changes: false });
  });

  it("replaces when the cluster identity changes", async () => {
    expect(await lifecycle.diff(id, olds, inputs({ version: "v1.31.2", clusterName: "demo-cluster" }))).toEqual({
      changes: true,
      replaces: ["clusterName"],
      diffs: ["clusterName"],
    });
    expect((await lifecycle.diff(id, olds, inputs({ version: "v1.31.2", projectId: 2, regionId: 38 }))).replaces).toEqual(["projectId", "regionId"]);
  });

  it("updates in place when version, allowMultiStep or timeoutMinutes change", async () => {
    for (const change of [{ version: "v1.32.1" }, { allowMultiStep: true }, { timeoutMinutes: 5 }]) {
      expect(await lifecycle.diff(id, olds, { ...inputs({ version: "v1.31.2" }), ...change })).toEqual({ changes: true, diffs: Object.keys(change) });
    }
  });

  it("treats an unknown version as a change and stored state without the optional inputs as defaults", async () => {
    expect(await lifecycle.diff(id, olds, { ...inputs(), version: UNKNOWN_VALUE })).toEqual({ changes: true, diffs: ["version"] });
    const { allowMultiStep: _a, timeoutMinutes: _t, ...older } = olds;
    expect(await lifecycle.diff(id, older as K8sClusterUpgradeOutputs, inputs({ version: "v1.31.2" }))).toEqual({ changes: false });
    // Only what really differs is named, never an input the older state lacks but has by default.
    expect(await lifecycle.diff(id, older as K8sClusterUpgradeOutputs, inputs({ version: "v1.32.1" }))).toEqual({ changes: true, diffs: ["version"] });
  });
});

describe("create and update", () => {
  it("writes nothing when the cluster already runs the target", async () => {
    const { ctx } = context();
    const r = await lifecycle.create(ctx, inputs({ version: "v1.30.4" }));
    expect(r.id).toBe("1/76/prod-cluster");
    expect(r.outs).toMatchObject({ version: "v1.30.4", previousVersion: "v1.30.4", upgradePath: [], taskIds: [], status: "Provisioned" });
    expect(r.outs.clusterId).toBe(clusterOf("prod-cluster").id);
    expect(writes()).toEqual([]);
  });

  it("upgrades one minor step, waits for the task and reports progress", async () => {
    const { ctx, lines } = context();
    const r = await lifecycle.create(ctx, inputs());
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
    expect(clusterOf("prod-cluster").version).toBe("v1.31.2");
    expect(r.outs).toMatchObject({
      ...inputs(),
      status: "Provisioned",
      previousVersion: "v1.30.4",
      upgradePath: ["v1.31.2"],
    });
    expect(r.outs.taskIds).toHaveLength(1);
    const taskId = r.outs.taskIds[0];
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^prod-cluster: upgrade to v1\\.31\\.2 RUNNING, \\d+s elapsed \\(task ${taskId}\\)$`)));
    expect(lines).toContain(`prod-cluster: Provisioned at v1.31.2 with every pool ready (task ${taskId})`);
  });

  it("steps through two minors in order with allowMultiStep", async () => {
    const { ctx } = context();
    const r = await lifecycle.create(ctx, inputs({ clusterName: "legacy-cluster", version: "v1.30.4", allowMultiStep: true }));
    const posts = upgradePosts("legacy-cluster");
    expect(posts).toHaveLength(2);
    expect(r.outs.upgradePath).toEqual(["v1.29.8", "v1.30.4"]);
    expect(r.outs.previousVersion).toBe("v1.28.12");
    expect(r.outs.taskIds).toHaveLength(2);
    const tasks = await Promise.all(r.outs.taskIds.map((id) => createClient({ baseUrl: sim.url, apiKey: sim.apiKey }).cloud.tasks.get(id)));
    expect(tasks.map((t) => t.state)).toEqual(["FINISHED", "FINISHED"]);
    // The second task was created only after the first finished.
    expect(String(tasks[1]?.createdOn) >= String(tasks[0]?.finishedOn)).toBe(true);
  });

  it("refuses (without writing) a target two minors away when allowMultiStep is off", async () => {
    const { ctx } = context();
    const err = await rejectionOf(lifecycle.create(ctx, inputs({ version: "v1.32.1" })));
    expect(err).toBeInstanceOf(UpgradeRejectedError);
    expect(err.message).toContain("only to v1.31.2");
    expect(writes()).toEqual([]);
  });

  it("fails with the task's quota text and leaves the cluster as it was; succeeds once the quota is raised", async () => {
    const { ctx } = context();
    const staging = inputs({ projectId: 2, clusterName: "staging-cluster", version: "v1.30.4" });
    const olds: K8sClusterUpgradeOutputs = {
      ...staging,
      version: "v1.29.8",
      clusterId: clusterOf("staging-cluster").id,
      status: "Provisioned",
      previousVersion: "v1.29.8",
      upgradePath: [],
      taskIds: [],
    };
    const err = await rejectionOf(lifecycle.update(ctx, "2/76/staging-cluster", olds, staging));
    expect(err).toBeInstanceOf(TaskFailedError);
    expect(err.message).toContain("Quota limit for vm_count exceeded by 2");
    expect(clusterOf("staging-cluster").version).toBe("v1.29.8");

    await admin(sim.url, "PUT", "/quotas/2", { vm_count: 100 });
    const outs = await lifecycle.update(ctx, "2/76/staging-cluster", olds, staging);
    expect(outs).toMatchObject({ version: "v1.30.4", previousVersion: "v1.29.8", upgradePath: ["v1.30.4"] });
    expect(upgradePosts("staging-cluster")).toHaveLength(2);
  });

  it("waits for an upgrade already running (an interrupted run) instead of starting another", async () => {
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
    const { tasks } = await client.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2");
    const running = tasks[0];
    expect(clusterOf("prod-cluster").task_id).toBe(running);

    const { ctx, lines } = context(client);
    const r = await lifecycle.create(ctx, inputs());
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
    expect(r.outs).toMatchObject({ version: "v1.31.2", previousVersion: "v1.30.4", upgradePath: ["v1.31.2"], taskIds: [running] });
    expect(lines).toContainEqual(expect.stringContaining(`already running on the cluster (task ${running})`));
  });

  it("gives up at timeoutMinutes, reported as partial state (the upgrade runs); the next run waits for the same task and never posts twice", async () => {
    const { ctx } = context();
    // The task stands still until the next run has seen it running (its first line says so).
    simClock.stop();
    const err = await rejectionOf(lifecycle.create(ctx, inputs({ timeoutMinutes: 0.001 })));
    expect(err).toBeInstanceOf(PartialResourceError);
    const timeout = (err as PartialResourceError).cause;
    expect(timeout).toBeInstanceOf(TaskTimeoutError);
    expect(err).toMatchObject({ id: "1/76/prod-cluster", properties: { version: "v1.30.4", taskIds: [(timeout as TaskTimeoutError).taskId] } });
    expect(clusterOf("prod-cluster").task_id).not.toBeNull();
    const next: LifecycleContext = { ...ctx, log: () => simClock.go() };
    const r = await lifecycle.update(next, "1/76/prod-cluster", (err as PartialResourceError).properties as unknown as K8sClusterUpgradeOutputs, inputs());
    expect(r.version).toBe("v1.31.2");
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
    expect(r.taskIds).toEqual([(timeout as TaskTimeoutError).taskId]);
  });

  it("reconciles a POST whose answer was lost by reading the cluster, not by sending again", async () => {
    // The connection of the upgrade POST (that path and method only) is reset after the server handled it.
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, path: "/cloud/v2/k8s/clusters/1/76/demo-cluster/upgrade", method: "POST" });
    const { ctx, lines } = context(createClient({ baseUrl: sim.url, apiKey: sim.apiKey }));
    const r = await lifecycle.create(ctx, inputs({ clusterName: "demo-cluster" }));
    const posts = upgradePosts("demo-cluster");
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ fault: "reset", status: 200 });
    expect(r.outs).toMatchObject({ version: "v1.31.2", upgradePath: ["v1.31.2"] });
    // The read-back waits out the request's timeout, so it may find the task still running
    // (one task followed) or already finished (the new version seen, no task to follow).
    expect(r.outs.taskIds.length).toBeLessThanOrEqual(1);
    expect(lines).toContainEqual(expect.stringContaining("took effect after all; not sending it again"));
  });

  it("update converges to the new version and records only what it did", async () => {
    const { ctx } = context();
    const created = await lifecycle.create(ctx, inputs());
    const outs = await lifecycle.update(ctx, created.id, created.outs, inputs({ version: "v1.32.1" }));
    expect(outs).toMatchObject({ version: "v1.32.1", previousVersion: "v1.31.2", upgradePath: ["v1.32.1"] });
    const again = await lifecycle.update(ctx, created.id, outs, inputs({ version: "v1.32.1", timeoutMinutes: 30 }));
    expect(again).toMatchObject({ version: "v1.32.1", timeoutMinutes: 30, upgradePath: [], taskIds: [] });
    expect(upgradePosts("prod-cluster")).toHaveLength(2);
  });
});

describe("read and delete", () => {
  it("reads the live version into outputs and inputs, and returns create's shape unchanged when nothing drifted", async () => {
    const { ctx } = context();
    const created = await lifecycle.create(ctx, inputs());
    const same = await lifecycle.read(ctx, created.id, created.outs);
    expect(same).toEqual({ id: created.id, outs: created.outs, inputs: inputs() });

    await admin(sim.url, "PATCH", "/clusters/1/76/prod-cluster", { version: "v1.32.1" });
    const drifted = await lifecycle.read(ctx, created.id, created.outs);
    expect(drifted?.outs.version).toBe("v1.32.1");
    expect(drifted?.inputs.version).toBe("v1.32.1");
    expect(drifted?.outs.upgradePath).toEqual(["v1.31.2"]);
  });

  it("keeps a state written before soakSeconds existed without it: its absence is the default, not a change", async () => {
    const { ctx } = context();
    const created = await lifecycle.create(ctx, inputs({ version: "v1.30.4" }));
    const { soakSeconds, ...older } = created.outs;
    expect(soakSeconds).toBe(0);
    const read = await lifecycle.read(ctx, created.id, older as K8sClusterUpgradeOutputs);
    expect(read?.outs).toEqual(older);
    expect(read?.inputs).not.toHaveProperty("soakSeconds");
    expect(await lifecycle.diff(created.id, read?.outs as K8sClusterUpgradeOutputs, inputs({ version: "v1.30.4" }))).toEqual({ changes: false });
  });

  it("records no soakSeconds when none is declared: absent is the default, in the stack too", async () => {
    const { ctx } = context();
    const { soakSeconds: _declared, ...undeclared } = inputs({ version: "v1.30.4" });
    const created = await lifecycle.create(ctx, undeclared);
    expect(created.outs).not.toHaveProperty("soakSeconds");
    const read = await lifecycle.read(ctx, created.id, created.outs);
    expect(read?.outs).toEqual(created.outs);
    expect(read?.inputs).not.toHaveProperty("soakSeconds");
  });

  it("returns undefined when the cluster is gone", async () => {
    const { ctx } = context();
    const created = await lifecycle.create(ctx, inputs({ version: "v1.30.4" }));
    const gone = { ...created.outs, clusterName: "deleted-elsewhere" };
    expect(await lifecycle.read(ctx, "1/76/deleted-elsewhere", gone)).toBeUndefined();
  });

  it("delete only forgets: no API call at all", async () => {
    const { ctx } = context();
    const created = await lifecycle.create(ctx, inputs({ version: "v1.30.4" }));
    await admin(sim.url, "DELETE", "/requests");
    await lifecycle.delete(ctx, created.id, created.outs);
    expect(sim.requests()).toEqual([]);
  });
});
