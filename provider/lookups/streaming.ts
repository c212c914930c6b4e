/** `getStreamingAiTasks`, with the API's filters, search and ordering, paged by page number. */
import type { AiTask, AiTaskName, AiTaskStatus } from "../api/streaming/aiTasks";
import type { LookupDefinition } from "./runtime";
import { AI_TASK_NAME_QUERY, AI_TASK_ORDERING_QUERY, AI_TASK_STATUS_QUERY } from "./queryEnums";
import { ArgChecker } from "./validate";

/** AI task kinds the `task_name` filter takes (`queryEnums.ts`). */
export const AI_TASK_NAMES: readonly AiTaskName[] = AI_TASK_NAME_QUERY;
/** AI task statuses the `status` filter takes (`queryEnums.ts`). */
export const AI_TASK_STATUSES: readonly AiTaskStatus[] = AI_TASK_STATUS_QUERY;
/** Ordering keys (ascending) the `ordering` parameter takes (`queryEnums.ts`). */
export const AI_TASK_ORDERINGS = AI_TASK_ORDERING_QUERY;

/** Arguments of `getStreamingAiTasks`; every filter is optional. */
export interface GetStreamingAiTasksArgs {
  /** Exactly this task id. */
  readonly taskId?: string;
  /** `transcription` or `content-moderation`. */
  readonly taskName?: AiTaskName;
  /** FAILURE, PENDING, RECEIVED, RETRY, REVOKED, STARTED or SUCCESS. */
  readonly status?: AiTaskStatus;
  /** Creation date or date-time, ISO 8601 (a date matches the whole day). */
  readonly dateCreated?: string;
  /** Ascending by task_id, status, task_name or started_at (default: started_at descending). */
  readonly ordering?: (typeof AI_TASK_ORDERINGS)[number];
  /** Full or partial text over task id, name, status and task data. */
  readonly search?: string;
  /** Tasks per request, 1..1000 (default 100). */
  readonly pageSize?: number;
  /** Stop after this many tasks (default: all). */
  readonly maxResults?: number;
}

/** Result of `getStreamingAiTasks`. */
export interface GetStreamingAiTasksResult {
  /** The matching tasks in the requested order. */
  readonly tasks: readonly AiTask[];
  /** Their ids, in the same order. */
  readonly ids: readonly string[];
}

interface Normalized {
  readonly taskId: string | undefined;
  readonly taskName: AiTaskName | undefined;
  readonly status: AiTaskStatus | undefined;
  readonly dateCreated: string | undefined;
  readonly ordering: (typeof AI_TASK_ORDERINGS)[number] | undefined;
  readonly search: string | undefined;
  readonly pageSize: number;
  readonly maxResults: number | undefined;
}

/** `getStreamingAiTasks`. */
export const getStreamingAiTasksLookup: LookupDefinition<GetStreamingAiTasksArgs, Normalized, GetStreamingAiTasksResult> = {
  name: "getStreamingAiTasks",
  normalize(raw) {
    const c = new ArgChecker("getStreamingAiTasks", raw, ["taskId", "taskName", "status", "dateCreated", "ordering", "search", "pageSize", "maxResults"]);
    return {
      taskId: c.optionalString("taskId"),
      taskName: c.optionalEnum("taskName", AI_TASK_NAMES),
      status: c.optionalEnum("status", AI_TASK_STATUSES),
      dateCreated: c.optionalIsoDateTime("dateCreated"),
      ordering: c.optionalEnum("ordering", AI_TASK_ORDERINGS),
      search: c.optionalString("search"),
      pageSize: c.optionalInt("pageSize", 1, 1000) ?? 100,
      maxResults: c.optionalInt("maxResults", 1),
    };
  },
  async execute({ client }, a) {
    const tasks = await client.streaming.aiTasks.listAll(
      { taskId: a.taskId, taskName: a.taskName, status: a.status, dateCreated: a.dateCreated, ordering: a.ordering, search: a.search, limit: a.pageSize },
      a.maxResults !== undefined ? { max: a.maxResults } : {},
    );
    return { tasks, ids: tasks.map((t) => t.taskId) };
  },
};
