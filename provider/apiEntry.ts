/**
 * Public entry `pulumi-cloudplatform/api`: the API client plus the task waiter.
 *
 * Why its own entry: writes return task ids, and scripts need the same polling, deadline and
 * cancellation the provider uses, so the package exports the waiter next to the client. The
 * waiter lives above the client (provider/tasks uses provider/api), so this file joins the two
 * and provider/api itself depends on nothing above it.
 */
export * from "./api";
export {
  waitForTask,
  DEFAULT_TASK_TIMEOUT_MS,
  recommendedIntervalMs,
  TaskFailedError,
  TaskTimeoutError,
  TaskCancelledError,
} from "./tasks";
export type { TaskProgress, WaitForTaskOptions, TaskWaitInfo } from "./tasks";
