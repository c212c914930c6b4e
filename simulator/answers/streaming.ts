/**
 * The streaming AI task page in each dialect (CONTRACT.md "Dialects" row 3).
 */
import { unchanged, withFuture, type ByDialect } from "../dialect";
import type { JsonObject } from "../state";

/** A page of AI tasks as the regular dialect builds it. */
export interface AiTaskPage extends JsonObject {
  count: number;
  next: string | null;
  previous: string | null;
  results: JsonObject[];
}

/** How a dialect shapes the streaming API's answers. */
export interface StreamingAnswers {
  /** The AI task page. */
  aiTaskPage(page: AiTaskPage): JsonObject;
}

/** Records in the Python SDK's `AITask` shape, and no `count` (its page model has only `results`). */
function publicAiTaskPage(page: AiTaskPage): JsonObject {
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

/** The streaming answers of each dialect. */
export const streamingAnswers: ByDialect<StreamingAnswers> = {
  regular: { aiTaskPage: unchanged },
  "public-api": { aiTaskPage: publicAiTaskPage },
};
