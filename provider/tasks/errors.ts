/** Errors of waiting for a task; here, since the client layer depends on nothing above it. */
import type { Task } from "../api/cloud/tasks";
import { formatDuration } from "../api/duration";
import { CloudPlatformError } from "../api/errors";

/** A task ended in ERROR; its `error` text is kept verbatim, since the user must act on it. */
export class TaskFailedError extends CloudPlatformError {
  readonly taskId: string;
  /** Null when the answer did not name it. */
  readonly taskType: string | null;
  /** The task's `error` text, verbatim. */
  readonly taskError: string;
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
  /** `undefined` if no poll completed. */
  readonly lastState?: string | undefined;
  readonly elapsedMs: number;
  readonly polls: number;
}

function describeTask(info: TaskWaitInfo): string {
  return `task ${info.taskId}${info.taskType ? ` (${info.taskType})` : ""}`;
}

/** The task may still finish, so a later run should look for it rather than start a second. */
export class TaskTimeoutError extends CloudPlatformError {
  readonly taskId: string;
  readonly taskType: string | undefined;
  readonly lastState: string | undefined;
  readonly elapsedMs: number;
  readonly polls: number;
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
