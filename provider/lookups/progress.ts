/**
 * Progress lines of the paged lookups (`getInstances`, `getTasks`).
 *
 * Why one helper: both report the same way, and only listings that need more than one page
 * report at all, so the common one-request lookup stays silent.
 */
import type { PageProgress } from "../api/pagination";

/** An `onPage` hook for the pager that reports `lookup: page 3 of 10 (3000 of 10000 noun)`. */
export function pageProgress(lookup: string, noun: string, report: (message: string) => void): (p: PageProgress) => void {
  return (p) => {
    if (p.totalPages <= 1) return;
    report(`${lookup}: page ${p.pages} of ${p.totalPages} (${p.items} of ${p.totalItems} ${noun})`);
  };
}
