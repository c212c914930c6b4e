/**
 * The event lists of one run, shared by the StorageEvent calls that may share them: the one place
 * that says how fresh each use of the list must be, and why. The API has no read-by-uuid, so
 * without sharing a refresh of N events would cost N lists (N² event records). The rules:
 *
 * - `read` (refresh, `preview --refresh`, `up --refresh`): any list *started* after the last
 *   write of this run finished and at most {@link READ_MAX_AGE_MS} ago, including one still in
 *   flight. Why that is fresh enough: the reads of one refresh start together and show the
 *   platform as it was when the refresh began; a change made elsewhere during the refresh races
 *   the refresh either way. A write of this run must show in its own later reads, hence "after
 *   the last write". The age bound keeps a long run (a refresh among slow upgrades) from reading
 *   a list minutes old.
 * - `create-check` (does an event with this identity already exist?): any list started within
 *   {@link CREATE_CHECK_WINDOW_MS} and after the last *delete* of this run finished. Why: the
 *   engine starts creates a few at a time as earlier ones finish, and they may share a list
 *   taken moments ago. Events this run creates meanwhile are not in it, but the run's claimed
 *   identities catch a second declaration of the same event; one created elsewhere in between
 *   is refused by the server's 409, which the create reports the same way. Only a delete of this
 *   run makes such a list wrong in the dangerous direction (an identity it still shows is free).
 * - `fresh` (the read-back after an ambiguous write, an adoption, the uuid of a new event): a
 *   new request every time, never shared. Why: it must see the effect of a write that was sent
 *   after any earlier list began, so no earlier list can stand in for it. Its answer then serves
 *   later `read` and `create-check` uses, being the newest list there is.
 *
 * A failed list is shared only with the calls waiting on it, never kept; one stopped by the
 * signal of the operation that started it is not shared at all (each waiter lists again).
 */
import { RequestAbortedError, type NotificationEvent } from "../../api";

/** How old a list a `read` may use (from when the list was started). */
export const READ_MAX_AGE_MS = 30_000;
/**
 * How old a list a create's pre-check may use: the batching window of creates. An `up` lists
 * once per window, and 1000 creates take about 120 s on the dynamic path (2 cores): 10 s keeps
 * that within the N/50 + 2 budget. Longer costs no safety (see `create-check`), only the chance
 * to name an event created elsewhere before the server's 409 does.
 */
export const CREATE_CHECK_WINDOW_MS = 10_000;

/** What a list is for; decides how fresh it must be (see the module comment). */
export type EventListUse = "read" | "create-check" | "fresh";

/** Writes of this run to events, by kind. */
export type EventWrite = "create" | "update" | "delete";

interface TakenList {
  readonly startedAt: number;
  readonly events: Promise<NotificationEvent[]>;
}

/** The shared event lists of one run (one per {@link RunState}). */
export class SharedEventLists {
  private latest: TakenList | undefined;
  /** When the last write of this run finished, of any kind and of deletes. */
  private lastWriteAt = -Infinity;
  private lastDeleteAt = -Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  /** The event list for `use`: a shared one when fresh enough for it, else a new request. */
  get(use: EventListUse, list: () => Promise<NotificationEvent[]>): Promise<NotificationEvent[]> {
    const latest = this.latest;
    if (use !== "fresh" && latest && this.freshEnough(use, latest)) {
      // A shared list carries the signal of the operation that started it: when that operation
      // is stopped (its customTimeouts ran out), the others still want a list, so they take
      // their own, sent with their own signal.
      return latest.events.catch((err: unknown) => {
        if (err instanceof RequestAbortedError) return this.take(list);
        throw err;
      });
    }
    return this.take(list);
  }

  /**
   * Records a write of this run when it settles (succeeded or not: a failed write may still
   * have acted), and passes its outcome through.
   */
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
    // Keep the newest by start time: a slower older list finishing later must not replace it.
    if (!this.latest || this.latest.startedAt <= taken.startedAt) this.latest = taken;
    taken.events.catch(() => {
      if (this.latest === taken) this.latest = undefined;
    });
    return taken.events;
  }
}
