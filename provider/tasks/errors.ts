/**
 * Errors of waiting for a task: it failed, the deadline passed, or the wait was cancelled.
 *
 * Why here and not in provider/api: they belong to the waiter, which sits above the client;
 * the client layer depends on nothing above it.
 */
import type { Task } from "../api/cloud/tasks";
import { formatDuration } from "../api/duration";
import { CloudPlatformError } from "../api/errors";

/**
 * A task ended in ERROR. The message carries the task's `error` text verbatim (e.g.
 * `Quota limit for vm_count exceeded by 2`) because that is what the user must act on.
 */
export class TaskFailedError extends CloudPlatformError {
  readonly taskId: string;
  /** The task's type, null when the answer did not name it. */
  readonly taskType: string | null;
  /** The task's `error` text, verbatim. */
  readonly taskError: string;
  /** The final task as read. */
  readonly task: Task;
  /** @internal */
  constructor(task: Task) {
    const text = task.error ?? "(the task reported no error text)";
    super(`Task ${task.id}${task.taskType ? ` (${task.taskType})` : ""} failed: ${text}`);
    this.taskId = task.id;
    this.taskType = task.taskType;
    this.taskError = text;
    this.task = task;
  }
}

/** Facts about an unfinished wait, shared by {@link TaskTimeoutError} and {@link TaskCancelledError}. */
export interface TaskWaitInfo {
  readonly taskId: string;
  readonly taskType?: string | undefined;
  /** The last state read, or `undefined` if no poll completed. */
  readonly lastState?: string | undefined;
  readonly elapsedMs: number;
  readonly polls: number;
}

function describeTask(info: TaskWaitInfo): string {
  return `task ${info.taskId}${info.taskType ? ` (${info.taskType})` : ""}`;
}

/**
 * The waiter's deadline passed first. The task may still finish on the server, so a later run
 * should look for it rather than start a second one.
 */
export class TaskTimeoutError extends CloudPlatformError {
  readonly taskId: string;
  readonly taskType: string | undefined;
  /** The last state read before giving up. */
  readonly lastState: string | undefined;
  readonly elapsedMs: number;
  /** How many times the task was read. */
  readonly polls: number;
  /** The deadline that passed. */
  readonly timeoutMs: number;
  /** @internal */
  constructor(info: TaskWaitInfo & { readonly timeoutMs: number }) {
    super(
      `Timed out after ${formatDuration(info.timeoutMs)} waiting for ${describeTask(info)}; ` +
        `last state ${info.lastState ?? "unknown"} after ${info.polls} polls. ` +
        "The task may still complete on the server; raise the timeout or check the task later.",
    );
    this.taskId = info.taskId;
    this.taskType = info.taskType;
    this.lastState = info.lastState;
    this.elapsedMs = info.elapsedMs;
    this.polls = info.polls;
    this.timeoutMs = info.timeoutMs;
  }
}

/** The caller's AbortSignal stopped the wait (e.g. Ctrl-C in `pulumi up`); the task itself goes on. */
export class TaskCancelledError extends CloudPlatformError {
  readonly taskId: string;
  readonly taskType: string | undefined;
  readonly lastState: string | undefined;
  readonly elapsedMs: number;
  readonly polls: number;
  /** @internal */
  constructor(info: TaskWaitInfo) {
    super(
      `Stopped waiting for ${describeTask(info)} after ${formatDuration(info.elapsedMs)}: cancelled; ` +
        `last state ${info.lastState ?? "unknown"}. The task itself is not cancelled on the server.`,
    );
    this.taskId = info.taskId;
    this.taskType = info.taskType;
    this.lastState = info.lastState;
    this.elapsedMs = info.elapsedMs;
    this.polls = info.polls;
  }
}
