/**
 * Waits for a cloud task on a backing-off schedule, never sleeping past the deadline, reporting
 * progress and keeping the task's error verbatim: every write of the API is a task.
 */
import { ConfigurationError, RequestAbortedError } from "../api/errors";
import { TaskCancelledError, TaskFailedError, TaskTimeoutError } from "./errors";
import type { Task } from "../api/cloud/tasks";
import type { RequestOptions } from "../api/transport";
import { sleep as defaultSleep } from "../api/sleep";
import { pollDelayMs, resolvePollSchedule, type PollSchedule } from "./schedule";

/** The slice of the API client the waiter needs (any object with `cloud.tasks.get`). */
export interface TaskReader {
  readonly cloud: { readonly tasks: { get(taskId: string, options?: RequestOptions): Promise<Task> } };
}

/** What `onProgress` receives. */
export interface TaskProgress {
  readonly taskId: string;
  /** `undefined` before the first poll answers. */
  readonly state: string | undefined;
  readonly taskType: string | undefined;
  readonly elapsedMs: number;
  readonly polls: number;
  readonly reason: "state-changed" | "still-waiting";
}

/** Time source and sleep; injectable so tests can run the schedule without real waiting. */
export interface WaiterClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Options of {@link waitForTask}. */
export interface WaitForTaskOptions {
  /** Default 30 minutes. */
  readonly timeoutMs?: number | undefined;
  /** Stops waiting (the task itself goes on). */
  readonly signal?: AbortSignal | undefined;
  /** On each state change and at least every `schedule.progressEveryMs`. */
  readonly onProgress?: ((progress: TaskProgress) => void) | undefined;
  /** Chooses the polling ceiling before the first answer. */
  readonly taskType?: string | undefined;
  readonly schedule?: Partial<PollSchedule> | undefined;
  readonly clock?: WaiterClock | undefined;
}

/** Default deadline: long enough for a cluster upgrade step, short enough to notice a stuck task. */
export const DEFAULT_TASK_TIMEOUT_MS = 30 * 60_000;

const realClock: WaiterClock = { now: () => Date.now(), sleep: defaultSleep };

/**
 * The FINISHED task; rejects with TaskFailedError (the task's own text), TaskTimeoutError (a last
 * poll at the deadline) or TaskCancelledError; read errors propagate unchanged.
 */
export async function waitForTask(client: TaskReader, taskId: string, options: WaitForTaskOptions = {}): Promise<Task> {
  const clock = options.clock ?? realClock;
  const schedule = resolvePollSchedule(options.schedule);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  if (!(timeoutMs >= 0)) throw new ConfigurationError(`Invalid waitForTask option: timeoutMs must be >= 0, got ${timeoutMs}`);
  const { signal, onProgress } = options;
  const started = clock.now();
  const deadline = started + timeoutMs;

  let taskType = options.taskType;
  let state: string | undefined;
  let polls = 0;
  let lastReportAt = started;

  const info = () => ({ taskId, taskType, lastState: state, elapsedMs: clock.now() - started, polls });
  const report = (reason: TaskProgress["reason"]): void => {
    lastReportAt = clock.now();
    onProgress?.({ taskId, state, taskType, elapsedMs: lastReportAt - started, polls, reason });
  };
  const cancelled = () => new TaskCancelledError(info());

  let nextPollAt = started;
  for (;;) {
    if (signal?.aborted) throw cancelled();
    if (clock.now() >= nextPollAt) {
      let task: Task;
      try {
        task = await client.cloud.tasks.get(taskId, { signal });
      } catch (err) {
        if (signal?.aborted || err instanceof RequestAbortedError) throw cancelled();
        throw err;
      }
      polls++;
      if (task.taskType) taskType = task.taskType;
      const changed = task.state !== state;
      state = task.state;
      if (changed) report("state-changed");
      if (task.state === "FINISHED") return task;
      if (task.state === "ERROR") throw new TaskFailedError(task);
      const now = clock.now();
      if (now >= deadline) throw new TaskTimeoutError({ ...info(), timeoutMs });
      // The deadline is checked against the next sleep: the last poll happens at the deadline.
      nextPollAt = Math.min(now + pollDelayMs(polls, taskType, schedule), deadline);
    } else if (clock.now() - lastReportAt >= schedule.progressEveryMs) {
      report("still-waiting");
    }
    const wakeAt = Math.min(nextPollAt, lastReportAt + schedule.progressEveryMs);
    await clock.sleep(Math.max(0, wakeAt - clock.now()), signal);
  }
}
