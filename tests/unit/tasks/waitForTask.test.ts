/**
 * The task waiter against the simulator's task engine (sped up with timeScale), plus a fake
 * clock for the timing rules (deadline vs. sleep, periodic progress) that must not depend on
 * the wall clock.
 */
import { ConfigurationError, createClient, NotFoundError, type CloudPlatformClient, type Task, type TaskState } from "../../../provider/api";
import {
  TaskCancelledError,
  TaskFailedError,
  TaskTimeoutError,
  waitForTask,
  type TaskProgress,
  type TaskReader,
  type WaiterClock,
} from "../../../provider/tasks";
import { sleep as realSleep } from "../../../provider/api/sleep";
import { startSimulator } from "../../../simulator";
import { admin, newKey, rejectionOf } from "../api/helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let client: CloudPlatformClient;

// 10 simulated seconds per real second: an upgrade (30 s) takes 3 s, NEW lasts 100 ms (slack
// for a loaded machine: polls every 50-200 ms still see NEW and RUNNING).
beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 10 });
  client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
});

const fast = { initialMs: 50, factor: 1.5, maxMs: 200 };
const pollsOf = (taskId: string) => sim.requests().filter((r) => r.method === "GET" && r.path === `/cloud/v1/tasks/${taskId}`);

async function startUpgrade(project: number, cluster: string, version: string): Promise<string> {
  const { tasks } = await client.cloud.k8s.upgrade(project, 76, cluster, version);
  const id = tasks[0];
  if (!id) throw new Error("no task id");
  return id;
}

/** The real clock, recording every sleep with the time it was requested. */
function recordingClock() {
  const sleeps: { at: number; ms: number; interrupted: boolean }[] = [];
  const clock: WaiterClock = {
    now: () => Date.now(),
    async sleep(ms, signal) {
      const entry = { at: Date.now(), ms, interrupted: false };
      sleeps.push(entry);
      await realSleep(ms, signal);
      entry.interrupted = signal?.aborted === true;
    },
  };
  return { clock, sleeps };
}

/** A clock whose sleeps pass at once, recording each wait. */
function fakeClock() {
  let t = 0;
  const sleeps: number[] = [];
  const clock: WaiterClock = {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += ms;
    },
  };
  return { clock, sleeps, now: () => t };
}

test("a cluster upgrade finishes after several polls, reporting each state change", async () => {
  const taskId = await startUpgrade(1, "prod-cluster", "v1.31.2");
  const progress: TaskProgress[] = [];
  const task = await waitForTask(client, taskId, { schedule: fast, timeoutMs: 60_000, onProgress: (p) => progress.push(p) });
  expect(task).toMatchObject({ id: taskId, state: "FINISHED", taskType: "upgrade_k8s_cluster", error: null });
  expect(Object.values(task.createdResources ?? { x: ["not null"] }).every((ids) => ids.length === 0)).toBe(true);
  expect(pollsOf(taskId).length).toBeGreaterThanOrEqual(3);
  const states = progress.filter((p) => p.reason === "state-changed").map((p) => p.state);
  expect(states[states.length - 1]).toBe("FINISHED");
  expect(states).toContain("RUNNING");
  expect(new Set(states).size).toBe(states.length); // one report per change
  expect(progress.every((p) => p.taskId === taskId && p.elapsedMs >= 0)).toBe(true);
  const cluster = await client.cloud.k8s.getCluster(1, 76, "prod-cluster");
  expect(cluster).toMatchObject({ version: "v1.31.2", status: "Provisioned", taskId: null });
});

test("a task that ends in ERROR throws TaskFailedError with the quota text verbatim", async () => {
  const taskId = await startUpgrade(2, "staging-cluster", "v1.30.4");
  const err = await rejectionOf(waitForTask(client, taskId, { schedule: fast, timeoutMs: 60_000 }));
  expect(err).toBeInstanceOf(TaskFailedError);
  const e = err as TaskFailedError;
  expect(e.taskId).toBe(taskId);
  expect(e.taskType).toBe("upgrade_k8s_cluster");
  expect(e.taskError).toBe("Quota limit for vm_count exceeded by 2");
  expect(e.message).toBe(`Task ${taskId} (upgrade_k8s_cluster) failed: Quota limit for vm_count exceeded by 2`);
  expect(e.task.createdResources).toBeNull();
  expect((await client.cloud.k8s.getCluster(2, 76, "staging-cluster")).version).toBe("v1.29.8");
});

test("an injected failure text reaches the error unchanged", async () => {
  const text = "Quota limit for cpu_count exceeded by 7 (injected)";
  await admin(sim.url, "POST", "/tasks/fail-next", { task_type: "upgrade_k8s_cluster", error: text });
  const taskId = await startUpgrade(1, "demo-cluster", "v1.31.2");
  const err = await rejectionOf(waitForTask(client, taskId, { schedule: fast }));
  expect(err).toBeInstanceOf(TaskFailedError);
  expect(err.message).toContain(`failed: ${text}`);
});

test("the deadline passes first: TaskTimeoutError with the last state, never sleeping past it", async () => {
  const taskId = await startUpgrade(1, "legacy-cluster", "v1.29.8");
  // A fake clock whose sleeps pass at once: the deadline is virtual, the polls are real.
  const { clock, sleeps } = fakeClock();
  const err = await rejectionOf(waitForTask(client, taskId, { schedule: { initialMs: 120, factor: 2, maxMs: 10_000 }, timeoutMs: 300, clock }));
  expect(err).toBeInstanceOf(TaskTimeoutError);
  const e = err as TaskTimeoutError;
  expect(e.taskId).toBe(taskId);
  expect(e.taskType).toBe("upgrade_k8s_cluster");
  expect(["NEW", "RUNNING"]).toContain(e.lastState);
  expect(e.message).toContain(`last state ${e.lastState}`);
  // Polls at 0 and 120; the second wait (240 ms) would pass the deadline, so it is cut to the
  // 180 ms left, and the last poll is made at the deadline itself.
  expect(sleeps).toEqual([120, 180]);
  expect(e.polls).toBe(3);
  expect(pollsOf(taskId)).toHaveLength(3);
  // The task itself goes on and finishes.
  await admin(sim.url, "POST", `/tasks/${taskId}/finish`);
  expect((await client.cloud.tasks.get(taskId)).state).toBe("FINISHED");
});

test("an abort interrupts the sleep at once: TaskCancelledError with the last state", async () => {
  const taskId = await startUpgrade(1, "prod-cluster", "v1.31.2");
  const ac = new AbortController();
  const { clock, sleeps } = recordingClock();
  const waiting = waitForTask(client, taskId, {
    schedule: { initialMs: 600_000, maxMs: 600_000, progressEveryMs: 600_000 },
    timeoutMs: 3_600_000,
    signal: ac.signal,
    clock,
    onProgress: (p) => {
      if (p.reason === "state-changed") setImmediate(() => ac.abort());
    },
  });
  const err = await rejectionOf(waiting);
  expect(err).toBeInstanceOf(TaskCancelledError);
  const e = err as TaskCancelledError;
  expect(e.taskId).toBe(taskId);
  expect(["NEW", "RUNNING"]).toContain(e.lastState);
  expect(e.polls).toBe(1);
  expect(sleeps).toHaveLength(1);
  // The whole interval, less the real milliseconds the loop took since the poll (a busy machine takes some).
  expect(sleeps[0]?.ms).toBeGreaterThan(590_000);
  expect(sleeps[0]?.ms).toBeLessThanOrEqual(600_000);
  expect(sleeps[0]?.interrupted).toBe(true);
  expect(pollsOf(taskId)).toHaveLength(1);
});

test("an already-aborted signal makes no request", async () => {
  const taskId = await startUpgrade(1, "demo-cluster", "v1.31.2");
  const ac = new AbortController();
  ac.abort();
  const err = await rejectionOf(waitForTask(client, taskId, { signal: ac.signal }));
  expect(err).toBeInstanceOf(TaskCancelledError);
  expect((err as TaskCancelledError).polls).toBe(0);
  expect(pollsOf(taskId)).toHaveLength(0);
});

test("an unknown task id propagates the API's NotFoundError", async () => {
  const err = await rejectionOf(waitForTask(client, "00000000-0000-4000-8000-000000000000", { schedule: fast }));
  expect(err).toBeInstanceOf(NotFoundError);
});

test("bad options are ConfigurationErrors naming the option, before any request", async () => {
  const reader: TaskReader = { cloud: { tasks: { get: async () => Promise.reject(new Error("no request was expected")) } } };
  const negative = await rejectionOf(waitForTask(reader, "t-0", { timeoutMs: -1 }));
  expect(negative).toBeInstanceOf(ConfigurationError);
  expect(negative.message).toBe("Invalid waitForTask option: timeoutMs must be >= 0, got -1");
  const schedule = await rejectionOf(waitForTask(reader, "t-0", { schedule: { factor: 0 } }));
  expect(schedule).toBeInstanceOf(ConfigurationError);
  expect(schedule.message).toBe("Invalid poll schedule: factor must be >= 1, got 0");
});

describe("timing rules with a fake clock", () => {
  function stuckReader(state: TaskState | (string & {}) = "RUNNING", taskType = "create_k8s_cluster_v2") {
    const pollTimes: number[] = [];
    let clockNow: () => number = () => 0;
    const reader: TaskReader = {
      cloud: {
        tasks: {
          get: async (id: string) => {
            pollTimes.push(clockNow());
            return { id, taskType, state, error: null, createdOn: null, updatedOn: null, finishedOn: null, createdResources: null, projectId: 1, regionId: 76, userId: null, clientId: null, requestId: null, detailedState: null, acknowledgedAt: null, acknowledgedBy: null, data: null } satisfies Task;
          },
        },
      },
    };
    return { reader, pollTimes, setClock: (f: () => number) => (clockNow = f) };
  }

  test("backs off to the type's interval, polls once more at the deadline, never sleeps past it", async () => {
    const { clock, sleeps, now } = fakeClock();
    const { reader, pollTimes, setClock } = stuckReader();
    setClock(now);
    const err = await rejectionOf(waitForTask(reader, "t-1", { timeoutMs: 200_000, clock, schedule: { progressEveryMs: 1e9 } }));
    expect(err).toBeInstanceOf(TaskTimeoutError);
    // 1 s, 1.5 s, 2.25 s, ... capped at 30 s for a k8s create.
    expect(sleeps.slice(0, 4)).toEqual([1000, 1500, 2250, 3375]);
    expect(Math.max(...sleeps)).toBe(30_000);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(200_000);
    expect(pollTimes[pollTimes.length - 1]).toBe(200_000);
    expect(sleeps[sleeps.length - 1]).toBeLessThan(30_000); // the last wait is cut to the deadline
    expect((err as TaskTimeoutError).polls).toBe(pollTimes.length);
  });

  test("reports progress at least every progressEveryMs while the state does not change", async () => {
    const { clock, now } = fakeClock();
    const { reader, setClock } = stuckReader("RUNNING", "upgrade_k8s_cluster");
    setClock(now);
    const reports: TaskProgress[] = [];
    await rejectionOf(waitForTask(reader, "t-2", { timeoutMs: 120_000, clock, schedule: { progressEveryMs: 10_000 }, onProgress: (p) => reports.push(p) }));
    expect(reports[0]).toMatchObject({ reason: "state-changed", state: "RUNNING", elapsedMs: 0, polls: 1 });
    const times = reports.map((r) => r.elapsedMs);
    for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBeLessThanOrEqual(10_000);
    expect(times[times.length - 1]).toBeGreaterThanOrEqual(110_000);
    expect(reports.slice(1).every((r) => r.reason === "still-waiting" && r.state === "RUNNING")).toBe(true);
  });
});

describe("a state the spec does not name", () => {
  /** A reader answering the states of `states` in turn (the last one from then on), and counting polls. */
  function sequenceReader(states: readonly string[]) {
    let polls = 0;
    const reader: TaskReader = {
      cloud: {
        tasks: {
          get: async (id: string) => {
            const state = states[Math.min(polls, states.length - 1)] as string;
            polls++;
            return { id, taskType: null, state, error: null, createdOn: null, updatedOn: null, finishedOn: null, createdResources: null, projectId: 1, regionId: 76, userId: null, clientId: null, requestId: null, detailedState: null, acknowledgedAt: null, acknowledgedBy: null, data: null } satisfies Task;
          },
        },
      },
    };
    return { reader, polls: () => polls };
  }

  test("is kept as text and polled like RUNNING until the task finishes", async () => {
    const { clock } = fakeClock();
    const { reader, polls } = sequenceReader(["QUEUED", "QUEUED", "SCHEDULING", "FINISHED"]);
    const progress: TaskProgress[] = [];
    const task = await waitForTask(reader, "t-9", { timeoutMs: 600_000, clock, onProgress: (p) => progress.push(p) });
    expect(task.state).toBe("FINISHED");
    expect(polls()).toBe(4);
    expect(progress.filter((p) => p.reason === "state-changed").map((p) => p.state)).toEqual(["QUEUED", "SCHEDULING", "FINISHED"]);
  });

  test("is polled until the deadline when it never changes: TaskTimeoutError naming the state as sent", async () => {
    const { clock, sleeps } = fakeClock();
    const { reader, polls } = sequenceReader(["PAUSED"]);
    const err = await rejectionOf(waitForTask(reader, "t-10", { timeoutMs: 100_000, clock, taskType: "upgrade_k8s_cluster" }));
    expect(err).toBeInstanceOf(TaskTimeoutError);
    const e = err as TaskTimeoutError;
    expect(e.lastState).toBe("PAUSED");
    expect(e.message).toContain("last state PAUSED");
    expect(e.polls).toBe(polls());
    expect(polls()).toBeGreaterThan(3);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(100_000);
  });

  test("an ERROR after it still fails with the task's text; a task without a type names none", async () => {
    const { clock } = fakeClock();
    const { reader } = sequenceReader(["QUEUED", "ERROR"]);
    const err = await rejectionOf(waitForTask(reader, "t-11", { timeoutMs: 100_000, clock }));
    expect(err).toBeInstanceOf(TaskFailedError);
    expect((err as TaskFailedError).taskType).toBeNull();
    expect(err.message).toBe("Task t-11 failed: (the task reported no error text)");
  });
});
