/**
 * Request accounting of one Pulumi operation: the requests the simulator logged while it ran,
 * counted by kind, next to the minimum the API allows for that operation.
 */
import { countKinds, isWrite, requestKind, type RequestLogEntry, type Sim } from "./common";

/** The requests one operation made and what it needed at least. */
export interface OperationLog {
  /** e.g. "StorageEvent: create 1 (up)". */
  label: string;
  log: RequestLogEntry[];
  /** The fewest requests of each kind the API allows for this operation. */
  minimum: Record<string, number>;
  /** Task polls are allowed on top of the minimum (an operation that waits on a task). */
  pollsAllowed?: boolean;
  /** Only writes are judged (reads shown for information), e.g. a preview that validates live. */
  judgeWritesOnly?: boolean;
  /** Known reason for requests above the minimum, shown with a MISSED. */
  why?: string;
}

export const TASK_POLL = "GET task (poll)";

/** Why a StorageEvent create lists events (provider/resources/storageEvent.ts, seen in the log). */
export const CREATE_LISTS =
  "create first lists all events to adopt an identical one left by an interrupted `pulumi up`; each create makes its own list (nothing shared between resources), so N creates cost N lists of up to N events";

/** Clears the log, runs `work`, returns what it logged. */
export async function logged(sim: Sim, work: () => Promise<unknown>): Promise<RequestLogEntry[]> {
  await sim.clearLog();
  await work();
  return sim.log().slice();
}

/** Requests beyond the minimum, by kind (polls excluded when allowed). */
export function excess(op: OperationLog): Map<string, number> {
  const counts = countKinds(op.judgeWritesOnly ? op.log.filter(isWrite) : op.log);
  const extra = new Map<string, number>();
  for (const [kind, n] of counts) {
    if (kind === TASK_POLL && op.pollsAllowed) continue;
    const over = n - (op.minimum[kind] ?? 0);
    if (over > 0) extra.set(kind, over);
  }
  return extra;
}

/** Kinds the operation made fewer of than the minimum (a sign it skipped a step). */
export function shortfall(op: OperationLog): Map<string, number> {
  const counts = countKinds(op.log);
  const short = new Map<string, number>();
  for (const [kind, n] of Object.entries(op.minimum)) {
    const have = counts.get(kind) ?? 0;
    if (have < n) short.set(kind, n - have);
  }
  return short;
}

/** Polls of one task id in a log. */
export function pollsOf(log: readonly RequestLogEntry[], taskId: string): RequestLogEntry[] {
  return log.filter((r) => requestKind(r) === TASK_POLL && r.path.replace(/\/+$/, "").endsWith(`/${taskId}`));
}
