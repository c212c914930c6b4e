/**
 * The terminal summary: one line per stack as it finishes, then the counts.
 *
 * Why plain lines: CI logs keep them in order and readable; only on a TTY a live count is
 * drawn over one status line (see cli.ts), never in a log.
 */
import { formatDuration } from "../../api/duration";
import { resourceNameOf, stackKey, type DriftReport, type ListingError, type StackResult } from "../report";
import { showResource } from "./values";

/** The line of a finished stack, with its resources (or error) indented below. */
export function stackLines(s: StackResult): string {
  const head = `${s.class.padEnd(13)} ${stackKey(s)} (${formatDuration(s.durationMs)})`;
  const details = [
    ...s.refusals.map((r) => `${r.code}${r.urn ? ` ${resourceNameOf(r.urn)}` : ""}: ${r.message.split("\n")[0]}`),
    ...s.resources.map(showResource),
    ...(s.error ? s.error.split("\n").slice(0, 5) : []),
  ];
  return [head, ...details.map((d) => `    ${d}`)].join("\n");
}

/** The line of a project directory whose stacks could not be listed. */
export function listingErrorLine(e: ListingError): string {
  return `cannot list the stacks of ${e.cwd}: ${e.error}`;
}

/** The closing lines: counts by class and the exit status. */
export function summaryLines(report: DriftReport): string {
  const c = report.counts;
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : "";
  return (
    `${report.stacks.length} stacks${shard} in ${formatDuration(report.durationMs)}: ` +
    `${c.clean} clean, ${c.drift} drift, ${c["drift-blocked"]} drift-blocked, ${c.error} error${unlisted(report)}; exit ${report.exitCode}`
  );
}

function unlisted(report: DriftReport): string {
  const n = report.listingErrors.length;
  return n ? `; ${n} ${n === 1 ? "project" : "projects"} not listed` : "";
}

/** The live count drawn on a TTY while stacks run. */
export function progressLine(done: number, total: number, running: number): string {
  return `cloudplatform-drift: ${done}/${total} stacks done, ${running} running`;
}
