/**
 * Task waiting for resource handlers: {@link waitForTask} and its polling schedule.
 *
 * Why a separate layer: handlers start work through provider/api and wait here; neither layer
 * knows about Pulumi (progress goes to a callback that each adapter, the dynamic provider or the
 * plugin, wires to what the person running `pulumi up` sees).
 */
export { waitForTask, DEFAULT_TASK_TIMEOUT_MS } from "./waitForTask";
export { TaskFailedError, TaskTimeoutError, TaskCancelledError } from "./errors";
export type { TaskWaitInfo } from "./errors";
export type { TaskReader, TaskProgress, WaiterClock, WaitForTaskOptions } from "./waitForTask";
export { DEFAULT_POLL_SCHEDULE, pollDelayMs, recommendedIntervalMs, resolvePollSchedule } from "./schedule";
export type { PollSchedule } from "./schedule";
