/**
 * Streaming AI tasks: `GET /streaming/ai/tasks`, a page-number list.
 *
 * Why: the `getStreamingAiTasks` lookup, with filters, search, ordering and paging.
 */
import { fetchAllNumbered, type NumberedPage, type NumberedPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { bodyList, isObject, numOrNull, str, strOrNull, type WireObject } from "../wire";

/** AI task statuses. */
export type AiTaskStatus = "FAILURE" | "PENDING" | "RECEIVED" | "RETRY" | "REVOKED" | "STARTED" | "SUCCESS";

/** AI task kinds (the API method that created the task). */
export type AiTaskName = "transcription" | "content-moderation";

/** A brief AI task record. */
export interface AiTask {
  /** Task id. */
  readonly taskId: string;
  /** Kind of AI task, as sent. */
  readonly taskName: string;
  /** Task status, as sent. */
  readonly status: string;
  /** Percent done, when reported. */
  readonly progress: number | null;
  /** Start time, when reported. */
  readonly startedAt: string | null;
  /** The task's request data; opaque user data, keys kept as sent. */
  readonly taskData: Readonly<Record<string, unknown>> | null;
}

/** Filters of the AI task list. */
export interface ListAiTasksParams {
  readonly taskId?: string;
  readonly taskName?: AiTaskName;
  readonly status?: AiTaskStatus;
  /** Creation time, ISO 8601. */
  readonly dateCreated?: string;
  /** Ascending by this field; default order is started_at descending. */
  readonly ordering?: "task_id" | "status" | "task_name" | "started_at";
  /** Full or partial text over task_id, task_name, status, task_data. */
  readonly search?: string;
  /** Page number from 1. */
  readonly page?: number;
  /** Results per page (server default 10). */
  readonly limit?: number;
}

/** Map one wire AI task. */
export function aiTaskFromWire(w: WireObject): AiTask {
  return {
    taskId: str(w["task_id"]),
    taskName: str(w["task_name"]),
    status: str(w["status"]),
    progress: numOrNull(w["progress"]),
    startedAt: strOrNull(w["started_at"]),
    taskData: isObject(w["task_data"]) ? w["task_data"] : null,
  };
}

/** The AI task functions of the client. */
export interface AiTasksApi {
  /** One page. */
  list(params?: ListAiTasksParams, options?: RequestOptions): Promise<NumberedPage<AiTask>>;
  /** Every matching task, page by page (cap with `max`). */
  listAll(params?: Omit<ListAiTasksParams, "page">, pager?: NumberedPagerOptions, options?: RequestOptions): Promise<AiTask[]>;
}

/** Bind the AI task functions to a transport. */
export function aiTasksApi(t: Transport): AiTasksApi {
  const list = async (params: ListAiTasksParams = {}, options?: RequestOptions): Promise<NumberedPage<AiTask>> => {
    const res = await t.request({
      method: "GET",
      path: "/streaming/ai/tasks",
      query: {
        task_id: params.taskId,
        task_name: params.taskName,
        status: params.status,
        date_created: params.dateCreated,
        ordering: params.ordering,
        search: params.search,
        page: params.page,
        limit: params.limit,
      },
      options,
    });
    const page = bodyList(res);
    return {
      count: page.count,
      next: strOrNull(page.body["next"]),
      previous: strOrNull(page.body["previous"]),
      results: page.results.map(aiTaskFromWire),
    };
  };
  return { list, listAll: (params = {}, pager = {}, options) => fetchAllNumbered((page) => list({ ...params, page }, options), pager) };
}

/** `client.streaming`. */
export interface StreamingApi {
  readonly aiTasks: AiTasksApi;
}

/** Bind the streaming group to a transport. */
export function streamingApi(t: Transport): StreamingApi {
  return Object.freeze({ aiTasks: aiTasksApi(t) });
}
