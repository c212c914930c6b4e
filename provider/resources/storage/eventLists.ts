/**
 * The event lists of one run, shared (the API has no read-by-uuid: a refresh of N events would
 * cost N lists), and how fresh each use must be:
 *
 * - `read`: a list started after this run's last write finished (its own writes must show) and
 *   at most {@link READ_MAX_AGE_MS} ago; a change made elsewhere races the refresh either way.
 * - `create-check`: a list started within {@link CREATE_CHECK_WINDOW_MS} and after this run's
 *   last delete, the only write that makes it wrong in the dangerous direction (an identity it
 *   still shows is free). Creates of this run are caught by its claimed identities, others by a 409.
 * - `fresh` (a read-back after an ambiguous write, an adoption): never shared, since it must see
 *   a write sent after any earlier list began.
 *
 * A failed list is never kept; one stopped by its operation's signal is not shared at all.
 */
import { RequestAbortedError, type NotificationEvent } from "../../api";

/** From when the list was started. */
export const READ_MAX_AGE_MS = 30_000;
/**
 * The batching window of creates: 1000 creates take about 120 s on the dynamic path (2 cores),
 * and 10 s keeps the lists within the N/50 + 2 budget. Longer would cost no safety.
 */
export const CREATE_CHECK_WINDOW_MS = 10_000;

/** Decides how fresh the list must be. */
export type EventListUse = "read" | "create-check" | "fresh";

export type EventWrite = "create" | "update" | "delete";

interface TakenList {
  readonly startedAt: number;
  readonly events: Promise<NotificationEvent[]>;
}

/** The shared event lists of one run (one per {@link RunState}). */
export class SharedEventLists {
  private latest: TakenList | undefined;
  private lastWriteAt = -Infinity;
  private lastDeleteAt = -Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  /** A shared list when fresh enough for `use`, else a new request. */
  get(use: EventListUse, list: () => Promise<NotificationEvent[]>): Promise<NotificationEvent[]> {
    const latest = this.latest;
    if (use !== "fresh" && latest && this.freshEnough(use, latest)) {
      // A shared list carries its starter's signal: when that operation is stopped, the others
      // take their own.
      return latest.events.catch((err: unknown) => {
        if (err instanceof RequestAbortedError) return this.take(list);
        throw err;
      });
    }
    return this.take(list);
  }

  /** Records a write when it settles, failed or not: a failed write may still have acted. */
  async written<T>(kind: EventWrite, write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      const at = this.now();
      this.lastWriteAt = at;
      if (kind === "delete") this.lastDeleteAt = at;
    }
  }

  private freshEnough(use: Exclude<EventListUse, "fresh">, l: TakenList): boolean {
    const age = this.now() - l.startedAt;
    if (use === "read") return l.startedAt > this.lastWriteAt && age <= READ_MAX_AGE_MS;
    return l.startedAt > this.lastDeleteAt && age <= CREATE_CHECK_WINDOW_MS;
  }

  private take(list: () => Promise<NotificationEvent[]>): Promise<NotificationEvent[]> {
    const taken: TakenList = { startedAt: this.now(), events: list() };
    // By start time: a slower older list must not replace a newer one.
    if (!this.latest || this.latest.startedAt <= taken.startedAt) this.latest = taken;
    taken.events.catch(() => {
      if (this.latest === taken) this.latest = undefined;
    });
    return taken.events;
  }
}
