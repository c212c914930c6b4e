/**
 * The streaming AI task page as each dialect answers it (CONTRACT.md "Dialects").
 *
 * Each function takes the answer the regular dialect builds and returns the answer to send:
 * unchanged for "regular", shaped as the public material allows for "public-api" (`dialect.ts`).
 */
import { isPublicApi, withFuture, type SimulatorDialect } from "../dialect";
import type { JsonObject } from "../state";

/**
 * The AI task page. "public-api": records in the current Python SDK's `AITask` shape
 * (`task_id`, `status`, `progress`, `task_data`, `processing_time`; the task name only inside
 * `task_data.task_name`, the start time only under `processing_time.started_at`), an unknown
 * field on each record, and no `count` (the SDK's page model has only `results`); `next` /
 * `previous` as the OpenAPI has them (`page=N`, null at the ends).
 */
export function aiTaskPageAnswer(dialect: SimulatorDialect, page: { count: number; next: string | null; previous: string | null; results: JsonObject[] }): JsonObject {
  if (!isPublicApi(dialect)) return page;
  const results = page.results.map((r) => {
    const data = r.task_data !== null && typeof r.task_data === "object" ? (r.task_data as JsonObject) : {};
    return withFuture({
      task_id: r.task_id,
      status: r.status,
      progress: r.progress,
      task_data: { task_name: r.task_name, ...data },
      processing_time: r.processing_time,
    });
  });
  return { next: page.next, previous: page.previous, results };
}
