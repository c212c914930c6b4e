/**
 * K8sClusterUpgrade when the cluster does not report its lock, and when a multi-step upgrade
 * fails after a step, against a simulator started for this file.
 *
 * The lock: a cluster answer carries `task_id` (the task locking it, or null for none). When
 * the field is not sent at all, the lock is unknown, never "free": the lifecycle reads the
 * unfinished tasks of the project and region, follows the one upgrade task among them, refuses
 * to act when there are several (UpgradeLockUnclearError), and starts the upgrade only when
 * there is none. After a POST whose answer was lost, a read-back that cannot tell (the tasks
 * list fails or shows several upgrades) is "may have taken effect", never "send it again".
 *
 * The simulator always sends `task_id`, so the client here drops it from every cluster it reads
 * (as a platform that leaves the field out would), and its task list can be made to fail or
 * show more tasks. The simulator's clock stands still from the start of each test until the
 * lifecycle waits on a task (its first progress line), so a task the test or the lifecycle
 * started is still running whenever the lifecycle reads the cluster or the task list before
 * that, however slowly this machine runs (a read-back after a lost answer waits out the
 * request's 1.5 s timeout first).
 */
import { createClient, ResponseFormatError, type CloudPlatformClient, type K8sCluster, type Task } from "../../../provider/api";
import { TaskFailedError } from "../../../provider/tasks";
import { createK8sClusterUpgradeLifecycle, type K8sClusterUpgradeInputs, type K8sClusterUpgradeOutputs } from "../../../provider/resources/k8sClusterUpgrade";
import { UpgradeLockUnclearError } from "../../../provider/resources/k8s/upgrade";
import { PartialResourceError } from "../../../provider/resources/partial";
import { WriteOutcomeUnknownError } from "../../../provider/resources/writeAttempts";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { admin, newKey, rejectionOf } from "../api/helpers";
import { contextOf } from "./context";
import { isTaskProgress, StoppableClock } from "./stoppableClock";

let sim: RunningSimulator;
const simClock = new StoppableClock();

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 10, now: simClock.now });
});
afterAll(() => sim.close());

const lifecycle = createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } });

/** What the client does to the answers it reads; each list entry is used by one call. */
interface Tweaks {
  /** Drop `task_id` from every cluster read (the lock is then unknown). */
  dropTaskId: boolean;
  /** Per call of `tasks.listAll`: the real answer, a format error, or the real answer plus {@link extraTasks}. */
  taskLists: Array<"ok" | "format" | "plusExtra">;
  /** Run before the n-th upgrade POST (1-based) reaches the simulator. */
  beforeUpgrade: Map<number, () => Promise<void>>;
  /** Run once, right after the next cluster read is answered. */
  afterClusterRead?: (() => Promise<void>) | undefined;
}
let tweaks: Tweaks;
let extraTasks: Task[] = [];
let logs: string[] = [];
let upgradeCalls = 0;

beforeEach(async () => {
  simClock.go();
  await admin(sim, "POST", "/reset");
  simClock.stop();
  tweaks = { dropTaskId: true, taskLists: [], beforeUpgrade: new Map() };
  extraTasks = [];
  logs = [];
  upgradeCalls = 0;
});

const real = () => createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { baseDelayMs: 1, maxDelayMs: 5 } });

function tweakedClient(): CloudPlatformClient {
  const c = real();
  const { k8s, tasks } = c.cloud;
  const withoutLock = (cluster: K8sCluster): K8sCluster => {
    if (!tweaks.dropTaskId) return cluster;
    const { taskId: _lock, ...rest } = cluster;
    return rest as K8sCluster;
  };
  return {
    ...c,
    cloud: {
      ...c.cloud,
      k8s: {
        ...k8s,
        getCluster: async (...args: Parameters<typeof k8s.getCluster>) => {
          const cluster = withoutLock(await k8s.getCluster(...args));
          const after = tweaks.afterClusterRead;
          tweaks.afterClusterRead = undefined;
          await after?.();
          return cluster;
        },
        upgrade: async (...args: Parameters<typeof k8s.upgrade>) => {
          upgradeCalls++;
          await tweaks.beforeUpgrade.get(upgradeCalls)?.();
          return k8s.upgrade(...args);
        },
      },
      tasks: {
        ...tasks,
        listAll: async (...args: Parameters<typeof tasks.listAll>) => {
          const how = tweaks.taskLists.shift() ?? "ok";
          if (how === "format") {
            throw new ResponseFormatError({ method: "GET", path: "/cloud/v1/tasks", status: 200, field: "(body)", problem: "expected JSON, got a body that is not JSON", received: "<html>", mayHaveActed: true });
          }
          const listed = await tasks.listAll(...args);
          return how === "plusExtra" ? [...listed, ...extraTasks] : listed;
        },
      },
    },
  } as CloudPlatformClient;
}

function ctx() {
  return contextOf(tweakedClient(), (m) => {
    logs.push(m);
    if (isTaskProgress(m)) simClock.go();
  });
}

function inputs(over: Partial<K8sClusterUpgradeInputs> = {}): K8sClusterUpgradeInputs {
  return { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2", allowMultiStep: false, timeoutMinutes: 10, soakSeconds: 0, ...over };
}

const upgradePosts = (cluster: string) => sim.requests().filter((r) => r.method === "POST" && r.path === `/cloud/v2/k8s/clusters/1/76/${cluster}/upgrade`);
const taskListReads = () => sim.requests().filter((r) => r.method === "GET" && r.path === "/cloud/v1/tasks");
const clusterOf = (name: string) => {
  const c = sim.state().clusters.find((x) => x.name === name);
  if (!c) throw new Error(`no cluster ${name}`);
  return c;
};

/** Starts an upgrade out of band (another `up`, the console): its task id. */
async function upgradeOutOfBand(cluster: string, version: string): Promise<string> {
  const { tasks } = await real().cloud.k8s.upgrade(1, 76, cluster, version);
  return String(tasks[0]);
}

/** An unfinished task the simulator does not know, as a task list may show it. */
function listedTask(id: string, taskType: string | null, state = "RUNNING"): Task {
  return { id, taskType, state, error: null, createdOn: null, updatedOn: null, finishedOn: null, createdResources: null, projectId: 1, regionId: 76, userId: null, clientId: null, requestId: null, detailedState: null, acknowledgedAt: null, acknowledgedBy: null, data: null };
}

describe("a cluster answer without task_id (lock unknown)", () => {
  test("with one upgrade task of the project and region running: follows that task and sends no upgrade", async () => {
    const running = await upgradeOutOfBand("prod-cluster", "v1.31.2");
    const r = await lifecycle.create(ctx(), inputs());
    expect(upgradePosts("prod-cluster")).toHaveLength(1); // the out-of-band one only
    expect(r.outs).toMatchObject({ version: "v1.31.2", previousVersion: "v1.30.4", upgradePath: ["v1.31.2"], taskIds: [running] });
    expect(logs).toContainEqual(expect.stringContaining(`already running on the cluster (task ${running})`));
    // The unfinished tasks of the cluster's project and region were asked for.
    expect(taskListReads()[0]?.query).toMatchObject({ project_id: "1", region_id: "76", state: expect.arrayContaining(["NEW", "RUNNING"]) });
  });

  test("with two upgrade tasks running: UpgradeLockUnclearError naming them, and no upgrade sent", async () => {
    const a = await upgradeOutOfBand("prod-cluster", "v1.31.2");
    const b = await upgradeOutOfBand("demo-cluster", "v1.31.2");
    const err = await rejectionOf(lifecycle.create(ctx(), inputs({ clusterName: "legacy-cluster", version: "v1.29.8" })));
    expect(err).toBeInstanceOf(UpgradeLockUnclearError);
    expect(err).not.toBeInstanceOf(PartialResourceError);
    expect(err.message).toContain("legacy-cluster: cannot tell whether an upgrade is already running");
    expect(err.message).toContain('no "task_id"');
    expect(err.message).toContain(a);
    expect(err.message).toContain(b);
    expect(err.message).toContain("nothing was sent");
    expect(upgradePosts("legacy-cluster")).toEqual([]);
    expect(clusterOf("legacy-cluster").version).toBe("v1.28.12");
  });

  test("a running task whose type is not reported counts as a possible upgrade", async () => {
    await upgradeOutOfBand("demo-cluster", "v1.31.2");
    extraTasks = [listedTask("t-untyped", null)];
    tweaks.taskLists = ["plusExtra"];
    const err = await rejectionOf(lifecycle.create(ctx(), inputs()));
    expect(err).toBeInstanceOf(UpgradeLockUnclearError);
    expect(err.message).toContain("t-untyped");
    expect(upgradePosts("prod-cluster")).toEqual([]);
  });

  test("with no upgrade task running (another kind of task may run): the upgrade is sent once, after the tasks were read", async () => {
    extraTasks = [listedTask("t-vm", "create_vm")];
    tweaks.taskLists = ["plusExtra"];
    const r = await lifecycle.create(ctx(), inputs());
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
    expect(r.outs).toMatchObject({ version: "v1.31.2", upgradePath: ["v1.31.2"] });
    expect(r.outs.taskIds).toHaveLength(1);
    expect(r.outs.taskIds[0]).not.toBe("t-vm");
    const seq = (req: { seq: number } | undefined) => req?.seq ?? Infinity;
    expect(seq(taskListReads()[0])).toBeLessThan(seq(upgradePosts("prod-cluster")[0]));
  });

  test("a cluster that sends task_id null is unlocked: no task list is read, the upgrade is sent", async () => {
    tweaks.dropTaskId = false;
    await upgradeOutOfBand("demo-cluster", "v1.31.2");
    await lifecycle.create(ctx(), inputs());
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
    expect(taskListReads()).toEqual([]);
  });
});

describe("a running upgrade that finishes between the lifecycle's reads", () => {
  test("the permitted versions, read after it finished, belong to the newer version: the cluster is read again, found at the target, and nothing is sent", async () => {
    const running = await upgradeOutOfBand("prod-cluster", "v1.31.2");
    // The cluster is read while the task runs (no task_id: the lock is unknown); the task
    // finishes at once after that read, so the task list shows none running and the permitted
    // versions are those of v1.31.2.
    tweaks.afterClusterRead = () => admin(sim, "POST", `/tasks/${running}/finish`);
    const r = await lifecycle.create(ctx(), inputs());
    expect(r.outs).toMatchObject({ version: "v1.31.2" });
    expect(upgradePosts("prod-cluster")).toHaveLength(1); // the out-of-band one only
  });
});

describe("an upgrade POST whose answer was lost, read back from a cluster without task_id", () => {
  beforeEach(async () => {
    await admin(sim, "POST", "/faults", { resetRate: 1, afterHandling: true, path: "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", method: "POST" });
  });

  test("the task list failing: 'may have taken effect', partial state, never a second POST; the next up follows the task", async () => {
    tweaks.taskLists = ["ok", "format"]; // before the POST: no task; the read-back: a format error
    const err = await rejectionOf(lifecycle.create(ctx(), inputs()));
    expect(err).toBeInstanceOf(PartialResourceError);
    const cause = (err as PartialResourceError).cause;
    expect(cause).toBeInstanceOf(WriteOutcomeUnknownError);
    expect((cause as Error).message).toContain("reading back failed too");
    expect(upgradePosts("prod-cluster")).toEqual([expect.objectContaining({ status: 200, fault: "reset" })]);
    expect(clusterOf("prod-cluster").task_id).not.toBeNull();

    await admin(sim, "DELETE", "/faults");
    const outs = await lifecycle.update(ctx(), "1/76/prod-cluster", (err as PartialResourceError).properties as unknown as K8sClusterUpgradeOutputs, inputs());
    expect(outs.version).toBe("v1.31.2");
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
  });

  test("the task list showing another upgrade beside ours: unclear, never a second POST", async () => {
    extraTasks = [listedTask("t-other-upgrade", "upgrade_k8s_cluster", "NEW")];
    tweaks.taskLists = ["ok", "plusExtra"];
    const err = await rejectionOf(lifecycle.create(ctx(), inputs()));
    expect(err).toBeInstanceOf(PartialResourceError);
    expect((err as PartialResourceError).cause).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(err.message).toContain("2 unfinished upgrade tasks");
    expect(err.message).toContain("t-other-upgrade");
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
  });

  test("the task list showing our task alone: it took effect, followed to the end, one POST", async () => {
    const r = await lifecycle.create(ctx(), inputs());
    expect(upgradePosts("prod-cluster")).toHaveLength(1);
    expect(r.outs).toMatchObject({ version: "v1.31.2", upgradePath: ["v1.31.2"] });
    expect(r.outs.taskIds).toHaveLength(1);
    expect(sim.state().tasks.find((t) => t.id === r.outs.taskIds[0])?.task_type).toBe("upgrade_k8s_cluster");
    expect(logs.join("\n")).toContain("took effect after all; not sending it again");
  });
});

describe("a multi-step upgrade whose later step fails", () => {
  const TEXT = "Quota limit for cpu_count exceeded by 4 (injected for step 2)";

  test("partial state: the version reached by the first step, the path and both tasks, with the task's error text", async () => {
    tweaks.dropTaskId = false;
    // The second upgrade task of the run ends in ERROR.
    tweaks.beforeUpgrade.set(2, () => admin(sim, "POST", "/tasks/fail-next", { task_type: "upgrade_k8s_cluster", error: TEXT }));
    const err = await rejectionOf(lifecycle.create(ctx(), inputs({ clusterName: "legacy-cluster", version: "v1.30.4", allowMultiStep: true })));
    expect(err).toBeInstanceOf(PartialResourceError);
    const partial = err as PartialResourceError;
    expect(partial.cause).toBeInstanceOf(TaskFailedError);
    expect((partial.cause as TaskFailedError).taskError).toBe(TEXT);
    expect(partial.id).toBe("1/76/legacy-cluster");
    expect(partial.properties).toMatchObject({
      clusterName: "legacy-cluster",
      version: "v1.29.8",
      status: "Provisioned",
      previousVersion: "v1.28.12",
      upgradePath: ["v1.29.8"],
      taskIds: [expect.any(String), expect.any(String)],
    });
    expect(partial.message).toContain(TEXT);
    expect(partial.message).toContain("It reached v1.29.8 by the path v1.28.12 -> v1.29.8.");
    expect(partial.reasons).toEqual([expect.stringContaining(TEXT)]);
    expect(upgradePosts("legacy-cluster")).toHaveLength(2);
    expect(clusterOf("legacy-cluster").version).toBe("v1.29.8");
  });

  test("a single step that fails is the plain TaskFailedError (the cluster is as it was)", async () => {
    tweaks.dropTaskId = false;
    tweaks.beforeUpgrade.set(1, () => admin(sim, "POST", "/tasks/fail-next", { task_type: "upgrade_k8s_cluster", error: TEXT }));
    const err = await rejectionOf(lifecycle.create(ctx(), inputs({ clusterName: "legacy-cluster", version: "v1.30.4", allowMultiStep: true })));
    expect(err).toBeInstanceOf(TaskFailedError);
    expect(err).not.toBeInstanceOf(PartialResourceError);
    expect(err.message).toContain(TEXT);
    expect(upgradePosts("legacy-cluster")).toHaveLength(1);
    expect(clusterOf("legacy-cluster").version).toBe("v1.28.12");
  });
});
