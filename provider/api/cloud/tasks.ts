/**
 * Cloud tasks: `GET /cloud/v1/tasks/{task_id}` and `GET /cloud/v1/tasks`.
 *
 * Why: every cloud write is asynchronous and returns task ids; the waiter and the resource
 * handlers read tasks through these two functions only.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { bodyList, bodyObject, isObject, numOrNull, str, strOrNull, type WireObject } from "../wire";

/** Task states as the API spells them. */
export type TaskState = "NEW" | "RUNNING" | "FINISHED" | "ERROR";

/** The states after which a task never changes. */
export const TERMINAL_TASK_STATES: readonly TaskState[] = ["FINISHED", "ERROR"];

/** An asynchronous cloud operation. */
export interface Task {
  /** Task UUID, globally unique. */
  readonly id: string;
  /** Kind of operation, e.g. `upgrade_k8s_cluster`. */
  readonly taskType: string;
  /** NEW, RUNNING, FINISHED or ERROR (other values are passed through as read). */
  readonly state: TaskState | string;
  /** Failure reason when ERROR, verbatim; otherwise null. */
  readonly error: string | null;
  /** ISO 8601 without zone, as sent. */
  readonly createdOn: string | null;
  /** Time of the last change, ISO 8601 without zone, as sent. */
  readonly updatedOn: string | null;
  /** Time the task finished, ISO 8601 without zone; null while running. */
  readonly finishedOn: string | null;
  /**
   * Resource ids created, keyed by the API's resource-type key (`instances`, `k8s_clusters`;
   * keys are data and stay as sent). Null while unfinished and on ERROR.
   */
  readonly createdResources: Readonly<Record<string, readonly (string | number)[]>> | null;
  /** Project the task works in, when reported. */
  readonly projectId: number | null;
  /** Region the task works in, when reported. */
  readonly regionId: number | null;
  /** User who started the task, when reported. */
  readonly userId: number | null;
  /** Client (account) the task belongs to, when reported. */
  readonly clientId: number | null;
  /** The request that started the task, when reported. */
  readonly requestId: string | null;
}

/** The answer of every write that starts work: `{tasks: [id, ...]}`. */
export interface TaskIdList {
  readonly tasks: readonly string[];
}

/** Filters of the task list (all optional; arrays become repeated keys). */
export interface ListTasksParams {
  readonly projectId?: number | readonly number[];
  readonly regionId?: number | readonly number[];
  readonly state?: TaskState | readonly TaskState[];
  readonly taskType?: string;
  readonly isAcknowledged?: boolean;
  /** created_on >= this ISO 8601 date-time. */
  readonly fromTimestamp?: string;
  /** created_on <= this ISO 8601 date-time. */
  readonly toTimestamp?: string;
  /** By creation date. */
  readonly orderBy?: "asc" | "desc";
  /** Page size (server default 10, max 1000). */
  readonly limit?: number;
  readonly offset?: number;
}

/** Map one wire task (snake_case) to {@link Task}. */
export function taskFromWire(w: WireObject): Task {
  return {
    id: str(w["id"]),
    taskType: str(w["task_type"]),
    state: str(w["state"]),
    error: strOrNull(w["error"]),
    createdOn: strOrNull(w["created_on"]),
    updatedOn: strOrNull(w["updated_on"]),
    finishedOn: strOrNull(w["finished_on"]),
    createdResources: createdResourcesFromWire(w["created_resources"]),
    projectId: numOrNull(w["project_id"]),
    regionId: numOrNull(w["region_id"]),
    userId: numOrNull(w["user_id"]),
    clientId: numOrNull(w["client_id"]),
    requestId: strOrNull(w["request_id"]),
  };
}

function createdResourcesFromWire(v: unknown): Task["createdResources"] {
  if (!isObject(v)) return null;
  const out: Record<string, (string | number)[]> = {};
  for (const [k, ids] of Object.entries(v)) {
    out[k] = Array.isArray(ids) ? ids.filter((x): x is string | number => typeof x === "string" || typeof x === "number") : [];
  }
  return out;
}

/** Map `{tasks: [...]}`. */
export function taskIdListFromWire(w: WireObject): TaskIdList {
  return { tasks: Array.isArray(w["tasks"]) ? w["tasks"].map(str) : [] };
}

/** The task functions of the client. */
export interface TasksApi {
  /** Read one task by id. */
  get(taskId: string, options?: RequestOptions): Promise<Task>;
  /** One page of tasks. */
  list(params?: ListTasksParams, options?: RequestOptions): Promise<OffsetPage<Task>>;
  /** Every task matching the filters, paging with `limit`/`offset` (cap with `max`). */
  listAll(params?: Omit<ListTasksParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<Task[]>;
}

/** Bind the task functions to a transport. */
export function tasksApi(t: Transport): TasksApi {
  const list = async (params: ListTasksParams = {}, options?: RequestOptions): Promise<OffsetPage<Task>> => {
    const res = await t.request({
      method: "GET",
      path: "/cloud/v1/tasks",
      query: {
        project_id: params.projectId,
        region_id: params.regionId,
        state: params.state,
        task_type: params.taskType,
        is_acknowledged: params.isAcknowledged,
        from_timestamp: params.fromTimestamp,
        to_timestamp: params.toTimestamp,
        order_by: params.orderBy,
        limit: params.limit,
        offset: params.offset,
      },
      options,
    });
    const page = bodyList(res);
    return { count: page.count, results: page.results.map(taskFromWire) };
  };
  return {
    async get(taskId, options) {
      const res = await t.request({ method: "GET", path: apiPath`/cloud/v1/tasks/${taskId}`, options });
      return taskFromWire(bodyObject(res));
    },
    list,
    listAll(params = {}, pager = {}, options) {
      return fetchAllOffset((p) => list({ ...params, ...p }, options), pager);
    },
  };
}
