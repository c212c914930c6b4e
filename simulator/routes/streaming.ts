/**
 * Streaming AI task list (spec "List streaming AI tasks").
 *
 * Filters task_id, task_name, status, date_created (prefix of the ISO start time, so a date
 * matches a whole day); ordering by task_id|status|task_name|started_at ascending (default
 * started_at descending); search is a case-insensitive substring over task_id, task_name, status
 * and the JSON of task_data; page from 1 with `limit` per page. `next`/`previous` are query-string
 * fragments (`page=N`) or null. A bad enum or number is 422 `{error}`.
 */
import { simpleError } from "../errors";
import type { Route, RouteContext } from "../router";
import { ok } from "../routeResult";
import { AiTask } from "../state";

/** Task names (the API method that created the task). */
export const AI_TASK_NAMES = ["transcription", "content-moderation"] as const;
/** Task statuses of the spec. */
export const AI_TASK_STATUSES = ["FAILURE", "PENDING", "RECEIVED", "RETRY", "REVOKED", "STARTED", "SUCCESS"] as const;
/** Ordering keys (ascending). */
export const AI_TASK_ORDERING = ["task_id", "status", "task_name", "started_at"] as const;

function enumParam<T extends string>(ctx: RouteContext, name: string, allowed: readonly T[]): T | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return undefined;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw simpleError(422, `invalid ${name} ${JSON.stringify(raw)}; allowed: ${allowed.join(", ")}`);
  }
  return raw as T;
}

function positiveInt(ctx: RouteContext, name: string, def: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return def;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw simpleError(422, `invalid ${name} ${JSON.stringify(raw)}; must be an integer >= 1`);
  return Number(raw);
}

function listAiTasks(ctx: RouteContext) {
  const taskName = enumParam(ctx, "task_name", AI_TASK_NAMES);
  const status = enumParam(ctx, "status", AI_TASK_STATUSES);
  const ordering = enumParam(ctx, "ordering", AI_TASK_ORDERING);
  const page = positiveInt(ctx, "page", 1);
  const limit = positiveInt(ctx, "limit", 10);
  const taskId = ctx.query.get("task_id");
  const dateCreated = ctx.query.get("date_created");
  if (dateCreated !== null && !/^\d{4}-\d{2}-\d{2}(T\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?)?Z?$/.test(dateCreated)) {
    throw simpleError(422, `invalid date_created ${JSON.stringify(dateCreated)}; expected ISO 8601`);
  }
  const search = (ctx.query.get("search") ?? "").toLowerCase();
  let tasks: AiTask[] = ctx.sim.store.state.aiTasks.filter((t) => {
    if (taskId !== null && taskId !== "" && t.task_id !== taskId) return false;
    if (taskName && t.task_name !== taskName) return false;
    if (status && t.status !== status) return false;
    if (dateCreated && !t.started_at.startsWith(dateCreated.replace(/Z$/, ""))) return false;
    if (search) {
      const hay = [t.task_id, t.task_name, t.status, JSON.stringify(t.task_data)].join("\n").toLowerCase();
      if (!hay.includes(search)) return false;
    }
    return true;
  });
  const key = ordering ?? "started_at";
  const sign = ordering ? 1 : -1;
  tasks = [...tasks].sort((a, b) => {
    const x = String(a[key]);
    const y = String(b[key]);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c !== 0 ? sign * c : a.task_id < b.task_id ? -1 : 1;
  });
  const start = (page - 1) * limit;
  const results = tasks.slice(start, start + limit).map((t) => ({
    task_id: t.task_id,
    task_name: t.task_name,
    status: t.status,
    progress: t.progress,
    task_data: t.task_data,
    started_at: t.started_at,
    processing_time: t.processing_time,
  }));
  const lastPage = Math.max(1, Math.ceil(tasks.length / limit));
  return ok(
    ctx.sim.answers.streaming.aiTaskPage({
      count: tasks.length,
      next: page < lastPage ? `page=${page + 1}` : null,
      previous: page > 1 ? `page=${Math.min(page - 1, lastPage)}` : null,
      results,
    }),
  );
}

/** Streaming routes. */
export const streamingRoutes: Route[] = [{ method: "GET", pattern: /^\/streaming\/ai\/tasks\/?$/, handler: listAiTasks }];
