/**
 * Reading a paged list that changes while it is read, each item once and none skipped: with
 * plain offsets an added item duplicates one and a removed item hides one. Each page starts a few
 * items early ("anchors") and continues after the latest it finds; a page with none restarts the
 * listing, and too many restarts fail with {@link ListChangedError}.
 */
import { CloudPlatformError, ConfigurationError, ListChangedError } from "./errors";

/** An item's identity in a list (its id; a cluster's name; a report row's date). */
export type ItemId = string | number;

/** Items a page re-reads from the page before, at most. */
export const DEFAULT_OVERLAP = 5;

/** Listings from the first page after the list moved too far, before {@link ListChangedError}. */
export const DEFAULT_MAX_RESTARTS = 3;

/** How the pagers follow a changing list; without `idOf` they read pages as they come. */
export interface ShiftOptions<T> {
  /** Given, pages overlap and items are returned once; not given, pages are read back to back. */
  readonly idOf?: (item: T) => ItemId;
  readonly overlap?: number;
  readonly maxRestarts?: number;
}

/** At most a third of the longest page, so a server capping its pages small still gains items per page. */
export function overlapFor(overlap: number, longestPage: number): number {
  return Math.max(0, Math.min(overlap, Math.floor(longestPage / 3)));
}

/** What a page adds to the listing: its new items, or `lost` when it holds none of its anchors. */
export type PagePlace<T> = { readonly lost: false; readonly fresh: readonly T[] } | { readonly lost: true };

/** The anchors, the ids already returned and the restarts of one listing. */
export class ShiftTracker<T> {
  private readonly seen = new Set<ItemId>();
  private anchors: ItemId[] = [];
  private restarts = 0;
  private readonly overlap: number;
  private readonly maxRestarts: number;

  constructor(
    private readonly what: string,
    private readonly options: ShiftOptions<T>,
  ) {
    this.overlap = options.idOf ? wholeNumberOption(options.overlap ?? DEFAULT_OVERLAP, 0, "overlap") : 0;
    this.maxRestarts = wholeNumberOption(options.maxRestarts ?? DEFAULT_MAX_RESTARTS, 0, "maxRestarts");
  }

  /** How many items before the reader's place the next page starts (0 for the first page). */
  back(longestPage: number): number {
    return Math.min(this.anchors.length, overlapFor(this.overlap, longestPage));
  }

  /** The page's items after the latest anchor it holds, less those returned already. */
  place(results: readonly T[], back: number): PagePlace<T> {
    const idOf = this.options.idOf;
    if (!idOf) return { lost: false, fresh: results };
    const ids = results.map(idOf);
    let after = 0;
    if (back > 0) {
      const anchors = this.anchors.slice(-back);
      const at = lastIndexOfAny(ids, anchors);
      if (at < 0) return { lost: true };
      after = at + 1;
    }
    const fresh = results.filter((_, i) => i >= after && !this.seen.has(ids[i] as ItemId));
    for (const item of fresh) this.seen.add(idOf(item));
    if (results.length > 0 && this.overlap > 0) this.anchors = ids.slice(-this.overlap);
    return { lost: false, fresh };
  }

  /** Throws once the list moved too often. */
  restart(): void {
    this.restarts++;
    if (this.restarts > this.maxRestarts) throw new ListChangedError(this.what, this.restarts);
    this.anchors = [];
  }
}

/** The index of the latest of `anchors` in `ids` (anchors are in list order), or -1. */
function lastIndexOfAny(ids: readonly ItemId[], anchors: readonly ItemId[]): number {
  for (let a = anchors.length - 1; a >= 0; a--) {
    const at = ids.lastIndexOf(anchors[a] as ItemId);
    if (at >= 0) return at;
  }
  return -1;
}

/** A page-number request that reads the list from `start`: page `page` of `limit` items. */
export interface NumberedWindow {
  readonly page: number;
  readonly limit: number;
  /** `(page - 1) * limit`. */
  readonly start: number;
  /** Items before the reader's place the page re-reads. */
  readonly back: number;
}

/**
 * Page numbers only address multiples of the page size, so the size varies (at most `pageSize`)
 * to re-read `back` items and still reach past `position`; the most new items wins.
 */
export function numberedWindow(position: number, back: number, pageSize: number): NumberedWindow {
  wholeNumberOption(pageSize, 1, "pageSize");
  for (let b = Math.min(back, position); b >= 0; b--) {
    let best: NumberedWindow | undefined;
    let bestGain = 0;
    for (let limit = pageSize; limit > b && limit >= 1; limit--) {
      const page = Math.floor((position - b) / limit) + 1;
      const start = (page - 1) * limit;
      const gain = start + limit - position;
      if (gain > bestGain) {
        best = { page, limit, start, back: b };
        bestGain = gain;
      }
    }
    if (best) return best;
  }
  // Unreachable: with b = 0, pages of pageSize items always reach past position.
  throw new CloudPlatformError(`no page continues the list at ${position} with pages of ${pageSize}`);
}

/** A pager option that counts something: a whole number of at least `least`, else a ConfigurationError naming it. */
export function wholeNumberOption(n: number, least: number, what: string): number {
  if (!Number.isInteger(n) || n < least) throw new ConfigurationError(`${what} must be an integer >= ${least}, got ${n}`);
  return n;
}
