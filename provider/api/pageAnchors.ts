/**
 * Reading a paged list that changes while it is read: each item once, none skipped.
 *
 * Why: a busy project's list gains and loses items between two page requests. With plain
 * offsets, an item added before the reader's place pushes the next page back (its first items
 * were already read: a duplicate), and an item removed pulls it forward (an item slides into the
 * page already read: it is never seen). So each page after the first starts a few items early
 * ("anchors": the ids that ended the page before) and continues after the latest anchor it finds;
 * items seen already are dropped by id. A page holding none of its anchors means the list moved
 * further than the overlap can follow: the listing starts again from its first page (items
 * already returned are not returned twice), and after `maxRestarts` such starts it fails with
 * {@link ListChangedError} instead of answering with a list that may be wrong.
 */
import { ListChangedError } from "./errors";

/** An item's identity in a list (its id; a cluster's name; a report row's date). */
export type ItemId = string | number;

/** Items a page re-reads from the page before, at most (a few; see {@link overlapFor}). */
export const DEFAULT_OVERLAP = 5;

/** Listings from the first page after the list moved too far, before {@link ListChangedError}. */
export const DEFAULT_MAX_RESTARTS = 3;

/** How the pagers follow a changing list; without `idOf` they read pages as they come. */
export interface ShiftOptions<T> {
  /**
   * The identity of an item. Given, pages overlap and items are returned once by it (the
   * `listAll` functions of the client pass it); not given, pages are read back to back.
   */
  readonly idOf?: (item: T) => ItemId;
  /** Items each page re-reads from the one before, at most (default {@link DEFAULT_OVERLAP}). */
  readonly overlap?: number;
  /** Reads from the first page after the list moved too far (default {@link DEFAULT_MAX_RESTARTS}). */
  readonly maxRestarts?: number;
}

/**
 * The overlap a page can afford: at most `overlap`, and a third of the longest page seen, so a
 * server that caps its pages small still gains items with each page (none before a first page).
 */
export function overlapFor(overlap: number, longestPage: number): number {
  return Math.max(0, Math.min(overlap, Math.floor(longestPage / 3)));
}

/** What a page adds to the listing: its new items, or `lost` when it holds none of its anchors. */
export type PagePlace<T> = { readonly lost: false; readonly fresh: readonly T[] } | { readonly lost: true };

/**
 * The anchors, the ids already returned and the restarts of one listing. The pagers ask it how
 * far back a page starts ({@link back}) and what a page adds ({@link place}).
 */
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
    this.overlap = options.idOf ? nonNegativeInt(options.overlap ?? DEFAULT_OVERLAP, "overlap") : 0;
    this.maxRestarts = nonNegativeInt(options.maxRestarts ?? DEFAULT_MAX_RESTARTS, "maxRestarts");
  }

  /** How many items before the reader's place the next page starts (0 for the first page). */
  back(longestPage: number): number {
    return Math.min(this.anchors.length, overlapFor(this.overlap, longestPage));
  }

  /**
   * Places a page that re-reads the last `back` items before the reader's place: the items
   * after the latest of those anchors it holds, less those returned already. The page's last
   * ids become the next anchors.
   */
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

  /** Starts the listing again from its first page; throws once the list moved too often. */
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
  /** Position in the whole list of the page's first item: `(page - 1) * limit`. */
  readonly start: number;
  /** How many of the items just before the reader's place the page re-reads (its anchors). */
  readonly back: number;
}

/**
 * The page-number request that best continues a listing at `position` while re-reading `back`
 * items before it: page numbers only address multiples of the page size, so the page size
 * varies (at most `pageSize`) to start the page early enough and still reach past `position`.
 * The request with the most new items wins; when none re-reads `back` items, fewer are re-read.
 */
export function numberedWindow(position: number, back: number, pageSize: number): NumberedWindow {
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
  // Unreachable for pageSize >= 1 (b = 0, limit = pageSize always reaches past position).
  throw new RangeError(`no page continues the list at ${position} with pages of ${pageSize}`);
}

function nonNegativeInt(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${what} must be an integer >= 0, got ${n}`);
  return n;
}
