/** Cloud tasks, which every asynchronous cloud write returns. */
import type { OffsetPage, OffsetPagerOptions } from "../pagination";
import { offsetEndpoint } from "../pagedEndpoint";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { offsetPage, optionalInt, optionalList, optionalText, readonlyList, readonlyRecord, text, type Answer } from "../schema";

/** Task states as the API spells them. */
export type TaskState = "NEW" | "RUNNING" | "FINISHED" | "ERROR";

/** Every task state the spec names; a task answer may carry another (kept as text, read as "not finished yet"). */
export const TASK_STATES: readonly TaskState[] = ["NEW", "RUNNING", "FINISHED", "ERROR"];

/** The states after which a task never changes. */
export const TERMINAL_TASK_STATES: readonly TaskState[] = ["FINISHED", "ERROR"];

/** Filters of the task list (all optional; arrays become repeated keys). */
export interface ListTasksParams {
  readonly projectId?: number | readonly number[];
  readonly regionId?: number | readonly number[];
  readonly state?: TaskState | readonly TaskState[];
  readonly taskType?: string;
  readonly isAcknowledged?: boolean;
  /** ISO 8601, inclusive, like `toTimestamp`. */
  readonly fromTimestamp?: string;
  readonly toTimestamp?: string;
  readonly orderBy?: "asc" | "desc";
  /** Server default 10, max 1000. */
  readonly limit?: number;
  readonly offset?: number;
}

/** A state the spec does not name is kept as text, and the waiter goes on polling it. */
const taskState: z.ZodType<string> = text;

/** A `created_resources` list: ids as strings, a few types (projects, ddos_profiles) integers; `null` reads as none. */
const createdIds = optionalList(z.union([z.string(), z.number()]));

/**
 * Only `id` and `state` are required (the waiter needs them); `task_type` is open although the
 * OpenAPI requires it: the waiter is told the type by its caller.
 */
export const taskSchema = z
  .object({
    id: text,
    task_type: optionalText,
    state: taskState,
    error: optionalText,
    created_on: optionalText,
    updated_on: optionalText,
    finished_on: optionalText,
    created_resources: z
      .record(z.string(), createdIds)
      .nullish()
      .transform((v) => (v ? readonlyRecord(v) : null)),
    project_id: optionalInt,
    region_id: optionalInt,
    user_id: optionalInt,
    client_id: optionalInt,
    request_id: optionalText,
    detailed_state: optionalText,
    acknowledged_at: optionalText,
    acknowledged_by: optionalInt,
    data: z.unknown().optional(),
  })
  .transform((w) => ({
    /** Task UUID, globally unique. */
    id: w.id,
    /** Kind of operation, e.g. `upgrade_k8s_cluster`; null when not sent. */
    taskType: w.task_type,
    /** NEW, RUNNING, FINISHED or ERROR; a state the spec does not name is kept as sent. */
    state: w.state,
    /** Failure reason when ERROR, verbatim; otherwise null. */
    error: w.error,
    /** Creation time, ISO 8601 as sent: with a zone (`2019-06-25T08:42:42Z`, the OpenAPI's example) or without (older answers). */
    createdOn: w.created_on,
    /** Time of the last change, ISO 8601 as sent (with or without a zone). */
    updatedOn: w.updated_on,
    /** Time the task finished, ISO 8601 as sent (with or without a zone); null while running. */
    finishedOn: w.finished_on,
    /**
     * Resource ids created, keyed by the API's resource-type key (`instances`, `k8s_clusters`;
     * keys are data and stay as sent; a key sent as `null` reads as no ids). Null while
     * unfinished and on ERROR.
     */
    createdResources: w.created_resources,
    /** Project the task works in, when reported. */
    projectId: w.project_id,
    /** Region the task works in, when reported. */
    regionId: w.region_id,
    /** User who started the task, when reported. */
    userId: w.user_id,
    /** Client (account) the task belongs to, when reported. */
    clientId: w.client_id,
    /** The request that started the task, when reported. */
    requestId: w.request_id,
    /**
     * A state more specific to the task's type (`CLUSTER_RESIZE`, `POST_DEPLOY_SETUP`, ...; kept
     * as sent); null when not reported.
     */
    detailedState: w.detailed_state,
    /** When the task was acknowledged, as sent; null when it was not. */
    acknowledgedAt: w.acknowledged_at,
    /** The user id that acknowledged the task; null when not acknowledged. */
    acknowledgedBy: w.acknowledged_by,
    /** The task's parameters, as the platform sends them (any JSON); null when not sent. */
    data: (w.data ?? null) as TaskData,
  }));

/** A task's parameters: any JSON value (the OpenAPI gives `data` no shape), `null` when not sent. */
export type TaskData = string | number | boolean | null | readonly TaskData[] | { readonly [key: string]: TaskData };

/** An asynchronous cloud operation. */
export interface Task extends Answer<typeof taskSchema> {}

/** The answer of every write that starts work: at least one task id (a write without one could not be followed). */
export const taskIdListSchema = z.object({ tasks: z.array(text).min(1).transform(readonlyList) }).transform((w) => ({ tasks: w.tasks }));

/** `{tasks: [id, ...]}`. */
export interface TaskIdList extends Answer<typeof taskIdListSchema> {}

/** A page of tasks. */
export const taskPageSchema = offsetPage(taskSchema);

/** The task functions of the client. */
export interface TasksApi {
  get(taskId: string, options?: RequestOptions): Promise<Task>;
  list(params?: ListTasksParams, options?: RequestOptions): Promise<OffsetPage<Task>>;
  /** Every task matching the filters, paging with `limit`/`offset` (cap with `max`). */
  listAll(params?: Omit<ListTasksParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<Task[]>;
}

/** Bind the task functions to a transport. */
export function tasksApi(t: Transport): TasksApi {
  const { list, listAll } = offsetEndpoint<[], ListTasksParams, Task>(t, {
    path: () => "/cloud/v1/tasks",
    query: {
      projectId: "project_id",
      regionId: "region_id",
      state: "state",
      taskType: "task_type",
      isAcknowledged: "is_acknowledged",
      fromTimestamp: "from_timestamp",
      toTimestamp: "to_timestamp",
      orderBy: "order_by",
      limit: "limit",
      offset: "offset",
    },
    page: taskPageSchema,
    idOf: (task) => task.id,
  });
  return {
    async get(taskId, options) {
      const res = await t.request({ method: "GET", path: apiPath`/cloud/v1/tasks/${taskId}`, options, response: taskSchema });
      return res.data;
    },
    list,
    listAll,
  };
}
