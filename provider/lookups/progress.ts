/**
 * Why here: the TypeScript SDK and the plugin report a lookup's progress to the same place
 * (Pulumi's log) in the same words. Only listings that need more than one page report pages,
 * so the common one-request lookup stays silent.
 */
import type { RetryEvent } from "../api/client";
import { formatDuration } from "../api/duration";
import type { PageProgress } from "../api/pagination";

/** An `onPage` hook for the pager that reports `lookup: page 3 of 10 (3000 of 10000 noun)`. */
export function pageProgress(lookup: string, noun: string, report: (message: string) => void): (p: PageProgress) => void {
  return (p) => {
    if (p.totalPages <= 1) return;
    report(`${lookup}: page ${p.pages} of ${p.totalPages} (${p.items} of ${p.totalItems} ${noun})`);
  };
}

/**
 * `GET /cloud/v1/projects failed (status 503); retrying in 1.5s (attempt 2)`; without the number
 * after a 429 that paces us, since its retry is no new attempt.
 */
export function retryLine(e: RetryEvent): string {
  const next = e.usedAnAttempt ? ` (attempt ${e.attempt + 1})` : "";
  return `${e.method} ${e.path} failed (${e.reason}); retrying in ${formatDuration(e.delayMs)}${next}`;
}
