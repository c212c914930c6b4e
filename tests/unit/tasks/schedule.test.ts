/**
 * The polling schedule, judged by what it is for (provider/tasks/schedule.ts): a short task is
 * seen finished quickly, a long one costs few polls, an upgrade step is noticed sooner than a
 * cluster create, and no task is seen finished later than its type's interval after it ended.
 */
import { pollDelayMs, recommendedIntervalMs, resolvePollSchedule, waitForTask, type TaskReader, type WaiterClock } from "../../../provider/tasks";
import type { Task } from "../../../provider/api";
import { startSimulator } from "../../../simulator";
import { CloudPlatformError, ConfigurationError, createClient } from "../../../provider/api";
import { newKey } from "../api/helpers";

/**
 * Waits with the default schedule on a fake clock for a task of `taskType` that finishes at
 * `finishAt` ms; returns when the waiter saw it finished and how many polls that took.
 */
async function observe(taskType: string, finishAt: number): Promise<{ seenAt: number; polls: number }> {
  let now = 0;
  let polls = 0;
  const clock: WaiterClock = { now: () => now, sleep: async (ms) => void (now += ms) };
  const reader: TaskReader = {
    cloud: {
      tasks: {
        get: async (id: string) => {
          polls++;
          const state = now >= finishAt ? "FINISHED" : "RUNNING";
          return { id, taskType, state, error: null, createdOn: null, updatedOn: null, finishedOn: null, createdResources: null, projectId: 1, regionId: 76, userId: null, clientId: null, requestId: null, detailedState: null, acknowledgedAt: null, acknowledgedBy: null, data: null } satisfies Task;
        },
      },
    },
  };
  await waitForTask(reader, "t", { clock, timeoutMs: 3_600_000 });
  return { seenAt: now, polls };
}

const TYPES = ["create_vm", "create_loadbalancer", "delete_bm_instance", "create_k8s_cluster_v2", "upgrade_k8s_cluster", "a_type_added_later"];

test.each(TYPES)("%s: seen finished no later than its interval after it ended, whenever that is", async (type) => {
  for (const finishAt of [300, 4_000, 61_000, 600_000]) {
    const { seenAt } = await observe(type, finishAt);
    expect(seenAt).toBeGreaterThanOrEqual(finishAt);
    expect(seenAt - finishAt).toBeLessThanOrEqual(recommendedIntervalMs(type));
  }
});

test("a task done within a second is seen done within a second (the fast start)", async () => {
  for (const type of TYPES) expect((await observe(type, 900)).seenAt).toBeLessThanOrEqual(1_000);
});

test("a ten-minute cluster create costs tens of polls, not hundreds", async () => {
  const { polls } = await observe("create_k8s_cluster_v2", 600_000);
  expect(polls).toBeLessThan(30);
  expect((await observe("create_vm", 600_000)).polls).toBeGreaterThan(polls);
});

test("an upgrade step is noticed sooner than a cluster create, slower than a VM create", async () => {
  // The worst delay over finish times spread across a minute, long after the fast start.
  const late = async (type: string) => {
    let worst = 0;
    for (let finishAt = 300_000; finishAt < 360_000; finishAt += 700) worst = Math.max(worst, (await observe(type, finishAt)).seenAt - finishAt);
    return worst;
  };
  const [vm, upgrade, create] = [await late("create_vm"), await late("upgrade_k8s_cluster"), await late("create_k8s_cluster_v2")];
  expect(upgrade).toBeLessThan(create);
  expect(vm).toBeLessThan(upgrade);
});

test("a lower maxMs caps every wait", () => {
  const capped = resolvePollSchedule({ maxMs: 2000 });
  for (let n = 1; n < 20; n++) expect(pollDelayMs(n, "create_k8s_cluster_v2", capped)).toBeLessThanOrEqual(2000);
});

test.each([
  [{ initialMs: 0 }, "initialMs must be > 0, got 0"],
  [{ factor: 0.5 }, "factor must be >= 1, got 0.5"],
  [{ maxMs: -1 }, "maxMs must be > 0, got -1"],
  [{ progressEveryMs: Number.NaN }, "progressEveryMs must be > 0, got NaN"],
])("a bad override %j is a ConfigurationError naming the field and its values", (override, problem) => {
  const err = (() => {
    try {
      resolvePollSchedule(override);
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  expect(err).toBeInstanceOf(ConfigurationError);
  expect(err).toBeInstanceOf(CloudPlatformError);
  expect((err as Error).message).toBe(`Invalid poll schedule: ${problem}`);
});

test("the task type the API gives an upgrade gets the upgrade's shorter interval, not the cluster create's", async () => {
  const sim = await startSimulator({ apiKey: newKey(), timeScale: 50 });
  try {
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
    const { tasks } = await client.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2");
    const task = await client.cloud.tasks.get(tasks[0] as string);
    // The task type is open in the answer (null when not sent); the simulator sends it.
    expect(task.taskType).toBe("upgrade_k8s_cluster");
    expect(recommendedIntervalMs(task.taskType)).toBeLessThan(recommendedIntervalMs("create_k8s_cluster_v2"));
  } finally {
    await sim.close();
  }
});
