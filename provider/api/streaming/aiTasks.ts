/** Streaming AI tasks, a page-number list, for the `getStreamingAiTasks` lookup. */
import type { NumberedPage, NumberedPagerOptions } from "../pagination";
import { numberedEndpoint } from "../pagedEndpoint";
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { optionalCount, optionalNumber, optionalText, readonlyRecord, text, type Answer } from "../schema";

/** AI task statuses. */
export type AiTaskStatus = "FAILURE" | "PENDING" | "RECEIVED" | "RETRY" | "REVOKED" | "STARTED" | "SUCCESS";

/** AI task kinds (the API method that created the task). */
export type AiTaskName = "transcription" | "content-moderation";

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

/** When the task ran, as the current SDK's record nests it (`processing_time`). */
const processingTimeSchema = z.object({ started_at: optionalText }).nullish();

/**
 * Only `task_id` is required, as in the OpenAPI; `task_name` and `started_at` are read at the
 * top or where the current SDK nests them (`task_data`, `processing_time`).
 */
export const aiTaskSchema = z
  .object({
    task_id: text,
    task_name: optionalText,
    status: optionalText,
    progress: optionalNumber,
    started_at: optionalText,
    processing_time: processingTimeSchema,
    task_data: z
      .record(z.string(), z.unknown())
      .nullish()
      .transform((v) => (v ? readonlyRecord(v) : null)),
  })
  .transform((w) => ({
    /** Task id. */
    taskId: w.task_id,
    /** Kind of AI task (`transcription`, `content-moderation`, ...), as sent; null when not sent. */
    taskName: w.task_name || textAt(w.task_data, "task_name"),
    /** Task status, as sent; null when not sent. */
    status: w.status,
    /** Percent done, when reported. */
    progress: w.progress,
    /** Start time, when reported. */
    startedAt: w.started_at ?? w.processing_time?.started_at ?? null,
    /** The task's request data; opaque user data, keys kept as sent. */
    taskData: w.task_data,
  }));

function textAt(data: Readonly<Record<string, unknown>> | null, key: string): string | null {
  const v = data?.[key];
  return typeof v === "string" && v !== "" ? v : null;
}

/** A brief AI task record. */
export interface AiTask extends Answer<typeof aiTaskSchema> {}

/** Only the results are required (OpenAPI); `next` not sent (undefined) never silently ends the list. */
export const aiTaskPageSchema = z
  .object({
    count: optionalCount,
    next: z.string().nullish().transform((v): string | null | undefined => v),
    previous: optionalText,
    results: z.array(aiTaskSchema),
  })
  .transform((w) => ({ count: w.count, next: w.next, previous: w.previous, results: w.results }));

/** Not the server's 10: each page re-reads a few items, so small pages bring few new ones. */
export const DEFAULT_AI_TASK_PAGE_SIZE = 100;

/** The AI task functions of the client. */
export interface AiTasksApi {
  list(params?: ListAiTasksParams, options?: RequestOptions): Promise<NumberedPage<AiTask>>;
  /** Every matching task, page by page (cap with `max`). */
  listAll(params?: Omit<ListAiTasksParams, "page">, pager?: NumberedPagerOptions, options?: RequestOptions): Promise<AiTask[]>;
}

/** Bind the AI task functions to a transport. */
export function aiTasksApi(t: Transport): AiTasksApi {
  return numberedEndpoint<[], ListAiTasksParams, AiTask>(t, {
    path: () => "/streaming/ai/tasks",
    query: {
      taskId: "task_id",
      taskName: "task_name",
      status: "status",
      dateCreated: "date_created",
      ordering: "ordering",
      search: "search",
      page: "page",
      limit: "limit",
    },
    page: aiTaskPageSchema,
    idOf: (task) => task.taskId,
    defaultPageSize: DEFAULT_AI_TASK_PAGE_SIZE,
  });
}

/** `client.streaming`. */
export interface StreamingApi {
  readonly aiTasks: AiTasksApi;
}

/** Bind the streaming group to a transport. */
export function streamingApi(t: Transport): StreamingApi {
  return Object.freeze({ aiTasks: aiTasksApi(t) });
}
