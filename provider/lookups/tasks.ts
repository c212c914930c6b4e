/** Task lookups: the outcome of an operation started elsewhere, or the running tasks before acting. */
import type { Task, TaskState } from "../api/cloud/tasks";
import type { LookupDefinition } from "./runtime";
import { pageProgress } from "./progress";
import { TASK_ORDER_BY_QUERY, TASK_STATE_QUERY, TASK_TYPE_QUERY } from "./queryEnums";
import { ArgChecker } from "./validate";

/** Task states the `state` filter takes (`TaskState`, `queryEnums.ts`). */
export const TASK_STATES: readonly TaskState[] = TASK_STATE_QUERY;

/** Task types the `task_type` filter takes (`queryEnums.ts`), e.g. `upgrade_k8s_cluster_v2`. */
export const TASK_TYPES: readonly string[] = TASK_TYPE_QUERY;

/** Arguments of `getTask`. */
export interface GetTaskArgs {
  /** The task id (UUID), as returned by a write. */
  readonly taskId: string;
}

/** Result of `getTask`: the task. */
export interface GetTaskResult extends Task {}

/** Arguments of `getTasks`; every filter is optional. */
export interface GetTasksArgs {
  /** Only tasks of this project. */
  readonly projectId?: number;
  /** Only tasks of this region. */
  readonly regionId?: number;
  /** Only tasks in this state (or any of these states): NEW, RUNNING, FINISHED, ERROR. */
  readonly state?: TaskState | readonly TaskState[];
  /**
   * Only tasks of this type: one of the task types the API's filter takes, e.g.
   * `upgrade_k8s_cluster_v2` for cluster upgrades (the filter does not take `upgrade_k8s_cluster`,
   * the type an upgrade task may report).
   */
  readonly taskType?: string;
  /** By creation time: `desc` (newest first, the API's default) or `asc`. */
  readonly orderBy?: "asc" | "desc";
  /** Tasks per request, 1..1000 (default 100). */
  readonly pageSize?: number;
  /** Stop after this many tasks (default: all). */
  readonly maxResults?: number;
}

/** Result of `getTasks`. */
export interface GetTasksResult {
  /** The matching tasks in the requested order. */
  readonly tasks: readonly Task[];
  /** Their ids, in the same order. */
  readonly ids: readonly string[];
}

interface NormalizedTasks {
  readonly projectId: number | undefined;
  readonly regionId: number | undefined;
  readonly state: TaskState[] | undefined;
  readonly taskType: string | undefined;
  readonly orderBy: "asc" | "desc";
  readonly pageSize: number;
  readonly maxResults: number | undefined;
}

/** `getTask`. */
export const getTaskLookup: LookupDefinition<GetTaskArgs, { readonly taskId: string }, GetTaskResult> = {
  name: "getTask",
  normalize(raw) {
    const c = new ArgChecker("getTask", raw, ["taskId"]);
    return { taskId: c.string("taskId") };
  },
  execute: ({ client }, a) => client.cloud.tasks.get(a.taskId),
};

/** `getTasks`. */
export const getTasksLookup: LookupDefinition<GetTasksArgs, NormalizedTasks, GetTasksResult> = {
  name: "getTasks",
  normalize(raw) {
    const c = new ArgChecker("getTasks", raw, ["projectId", "regionId", "state", "taskType", "orderBy", "pageSize", "maxResults"]);
    return {
      projectId: c.optionalInt("projectId", 1),
      regionId: c.optionalInt("regionId", 1),
      state: c.optionalEnumList("state", TASK_STATES),
      taskType: c.optionalEnum("taskType", TASK_TYPES),
      orderBy: c.optionalEnum("orderBy", TASK_ORDER_BY_QUERY) ?? "desc",
      pageSize: c.optionalInt("pageSize", 1, 1000) ?? 100,
      maxResults: c.optionalInt("maxResults", 1),
    };
  },
  async execute({ client, progress }, a) {
    const tasks = await client.cloud.tasks.listAll(
      { projectId: a.projectId, regionId: a.regionId, state: a.state, taskType: a.taskType, orderBy: a.orderBy },
      {
        pageSize: a.pageSize,
        ...(a.maxResults !== undefined ? { max: a.maxResults } : {}),
        onPage: pageProgress("getTasks", "tasks", progress),
      },
    );
    return { tasks, ids: tasks.map((t) => t.id) };
  },
};
