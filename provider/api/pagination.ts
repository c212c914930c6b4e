/**
 * Pagination helpers for the two page styles the API uses.
 *
 * Why helpers and not per-endpoint loops: lookups "page through lists when asked for all", and
 * getting termination right (count reached, short page, empty page, a cap) once is cheaper than
 * getting it right in every caller.
 */
import { PaginationLimitError } from "./errors";
import { ShiftTracker, numberedWindow, type ShiftOptions } from "./pageAnchors";

/**
 * Default page cap: far above any real list (1000 pages of 1000 items), low enough that a server
 * announcing a next page forever fails clearly instead of looping.
 */
export const DEFAULT_MAX_PAGES = 1000;

/**
 * An offset page (`limit`/`offset` in, `{count, results}` out); `count` is the total, or null
 * where the endpoint does not send one (regions).
 */
export interface OffsetPage<T> {
  readonly count: number | null;
  readonly results: readonly T[];
}

/** Fetches one offset page. */
export type OffsetPageFetcher<T> = (page: { readonly limit: number; readonly offset: number }) => Promise<OffsetPage<T>>;

/** Options of the offset pager; with `idOf`, a list that changes while it is read is followed (see ShiftOptions). */
export interface OffsetPagerOptions<T = unknown> extends ShiftOptions<T> {
  /** Page size sent as `limit` (default 100). */
  readonly pageSize?: number;
  /** Where to start (default 0). */
  readonly startOffset?: number;
  /** Stop after this many items (default: no cap). */
  readonly max?: number;
  /** Fail with PaginationLimitError when more pages than this are announced (default {@link DEFAULT_MAX_PAGES}). */
  readonly maxPages?: number;
  /** What is listed, for the PaginationLimitError message (e.g. `GET /cloud/v1/projects`). */
  readonly what?: string;
  /** Called after each page arrives (progress of long listings). */
  readonly onPage?: (progress: PageProgress) => void;
}

/** Where a paged listing stands after a page arrived. */
export interface PageProgress {
  /** Pages fetched so far (from 1). */
  readonly pages: number;
  /** Items received so far (capped at `max`). */
  readonly items: number;
  /** Pages the listing needs in all, from the first page's total and `max`. */
  readonly totalPages: number;
  /** Items the listing will return in all (the total, capped at `max`). */
  readonly totalItems: number;
}

/** Whether an offset listing ends after a page (`position`: the list position after its last item). */
function offsetListEnds(page: OffsetPage<unknown>, position: number, fresh: number, asked: number, longestBefore: number): boolean {
  const length = page.results.length;
  if (length === 0) return true;
  if (page.count !== null && position >= page.count) return true;
  // Nothing new on a page shorter than asked and than the server's pages: the list ends here.
  return fresh === 0 && length < asked && length < longestBefore;
}

/**
 * Iterate items over offset pages until `count` is reached, a page comes back empty, or `max`
 * items were yielded; more than `maxPages` pages is a PaginationLimitError. A page shorter than
 * asked does not end the list while the total says more are left: a server may cap its pages
 * below the `limit` asked for. Without a total (`count` null) the list ends at the first empty
 * page. The last page asks only for the items still wanted, so a cap below the page size
 * fetches no more than it. With `idOf`, each page after the first starts a few items early to
 * find its place (pageAnchors.ts), and each item is yielded once.
 */
export async function* iterateOffsetPages<T>(fetchPage: OffsetPageFetcher<T>, options: OffsetPagerOptions<T> = {}): AsyncGenerator<T, void, undefined> {
  const limit = positiveInt(options.pageSize ?? 100, "pageSize");
  const max = options.max ?? Infinity;
  const maxPages = positiveInt(options.maxPages ?? DEFAULT_MAX_PAGES, "maxPages");
  const start = options.startOffset ?? 0;
  const tracker = new ShiftTracker<T>(options.what ?? "the list", options);
  let position = start;
  let yielded = 0;
  let pages = 0;
  // The longest page seen: the server's page size when it caps pages below `limit` (a last,
  // shorter page must not make the estimate of the pages grow).
  let longest = 0;
  while (yielded < max) {
    if (pages >= maxPages) throw new PaginationLimitError(maxPages, options.what ?? "the list");
    const back = tracker.back(longest);
    const want = Math.min(limit, max - yielded + back);
    const page = await fetchPage({ limit: want, offset: position - back });
    pages++;
    const placed = tracker.place(page.results, back);
    if (placed.lost) {
      tracker.restart();
      position = start;
      continue;
    }
    const longestBefore = longest;
    longest = Math.max(longest, page.results.length);
    position += page.results.length - back;
    const received = Math.min(yielded + placed.fresh.length, max);
    options.onPage?.(offsetProgress(page, { pages, received, start, max, perPage: Math.min(limit, longest || limit), reread: tracker.back(longest) }));
    for (const item of placed.fresh) {
      if (yielded >= max) return;
      yield item;
      yielded++;
    }
    if (offsetListEnds(page, position, placed.fresh.length, want, longestBefore)) return;
  }
}

/**
 * The progress after a page: the pages the listing needs in all count the first page whole and
 * each later one less the items it re-reads (`reread`).
 */
function offsetProgress(
  page: OffsetPage<unknown>,
  at: { pages: number; received: number; start: number; max: number; perPage: number; reread: number },
): PageProgress {
  const totalItems = page.count === null ? at.received : Math.min(Math.max(page.count - at.start, 0), at.max);
  const perPage = Math.max(1, at.perPage);
  const later = Math.max(1, perPage - at.reread);
  const needed = totalItems <= perPage ? 1 : 1 + Math.ceil((totalItems - perPage) / later);
  return { pages: at.pages, items: at.received, totalItems, totalPages: Math.max(at.pages, needed) };
}

/** Collect all items of an offset-paged list (up to `max`). */
export async function fetchAllOffset<T>(fetchPage: OffsetPageFetcher<T>, options: OffsetPagerOptions<T> = {}): Promise<T[]> {
  return collect(iterateOffsetPages(fetchPage, options));
}

/**
 * A page-number page (streaming AI tasks): `next` is null on the last page. Each field but the
 * results may be left out by the server: `next` and `count` are then `undefined` / `null`.
 */
export interface NumberedPage<T> {
  /** The total, or null when not sent. */
  readonly count: number | null;
  /** The next page's query (`page=2`), null on the last page, undefined when not sent. */
  readonly next: string | null | undefined;
  readonly previous: string | null;
  readonly results: readonly T[];
}

/**
 * Fetches page number `page` (from 1) of `limit` items; `limit` is undefined unless the pager
 * was given a `pageSize` (then it varies the page size to re-read a few items, pageAnchors.ts).
 */
export type NumberedPageFetcher<T> = (page: number, limit: number | undefined) => Promise<NumberedPage<T>>;

/** Options of the page-number pager; with `idOf` (and `pageSize`), a changing list is followed (see ShiftOptions). */
export interface NumberedPagerOptions<T = unknown> extends ShiftOptions<T> {
  /** First page number (default 1). */
  readonly startPage?: number;
  /**
   * Items per page, sent as the fetcher's `limit`. With `idOf`, pages then overlap by a few
   * items (page size and number chosen per page); without it, the fetcher picks its own size.
   */
  readonly pageSize?: number;
  /** Stop after this many items (default: no cap). */
  readonly max?: number;
  /** Fail with PaginationLimitError when more pages than this are announced (default {@link DEFAULT_MAX_PAGES}). */
  readonly maxPages?: number;
  /** What is listed, for the PaginationLimitError message (e.g. `GET /streaming/ai/tasks`). */
  readonly what?: string;
}

/**
 * Iterate items over numbered pages until `next` is null, a page is empty, or `max` is reached;
 * a `next` still announced after `maxPages` pages is a PaginationLimitError. A page that does not
 * send `next` is followed by the total when it sends `count`, else until an empty page. With
 * `idOf` each item is yielded once; with `pageSize` too, each page after the first re-reads a
 * few items to find its place (pageAnchors.ts), and a server that serves fewer than asked while
 * announcing more is taken to cap its pages at that size.
 */
export async function* iterateNumberedPages<T>(fetchPage: NumberedPageFetcher<T>, options: NumberedPagerOptions<T> = {}): AsyncGenerator<T, void, undefined> {
  const max = options.max ?? Infinity;
  const maxPages = positiveInt(options.maxPages ?? DEFAULT_MAX_PAGES, "maxPages");
  const startPage = positiveInt(options.startPage ?? 1, "startPage");
  let size = options.pageSize === undefined ? undefined : positiveInt(options.pageSize, "pageSize");
  const tracker = new ShiftTracker<T>(options.what ?? "the list", size === undefined ? { ...options, overlap: 0 } : options);
  const first = (startPage - 1) * (size ?? 0);
  let position = first;
  let pageNumber = startPage;
  let yielded = 0;
  let received = 0;
  let longest = 0;
  for (let pages = 0; yielded < max; pages++) {
    if (pages >= maxPages) throw new PaginationLimitError(maxPages, options.what ?? "the list");
    const w = size === undefined ? { page: pageNumber, limit: undefined, start: 0, back: 0 } : numberedWindow(position, tracker.back(longest), size);
    const current = await fetchPage(w.page, w.limit);
    const length = current.results.length;
    const capped = w.limit !== undefined && length > 0 && length < w.limit && morePagesAfter(current, w.start + length);
    if (capped) size = length;
    const placed = capped && w.page > 1 ? ({ lost: true } as const) : tracker.place(current.results, w.back);
    if (placed.lost) {
      tracker.restart();
      position = first;
      continue;
    }
    const longestBefore = longest;
    longest = Math.max(longest, length);
    received += length;
    position = w.start + length;
    pageNumber = w.page + 1;
    for (const item of placed.fresh) {
      if (yielded >= max) return;
      yield item;
      yielded++;
    }
    if (length === 0 || !morePagesAfter(current, size === undefined ? received : position)) return;
    // Nothing new on a page shorter than asked and than the server's pages: the list ends here.
    if (placed.fresh.length === 0 && w.limit !== undefined && length < w.limit && length < longestBefore) return;
  }
}

/** Whether a numbered page announces another: by `next` when sent, else by the total, else yes (until an empty page). */
function morePagesAfter(page: NumberedPage<unknown>, reached: number): boolean {
  if (page.next !== undefined) return page.next !== null;
  if (page.count !== null) return reached < page.count;
  return true;
}

/** Collect all items of a page-number list (up to `max`). */
export async function fetchAllNumbered<T>(fetchPage: NumberedPageFetcher<T>, options: NumberedPagerOptions<T> = {}): Promise<T[]> {
  return collect(iterateNumberedPages(fetchPage, options));
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

function positiveInt(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${what} must be an integer >= 1, got ${n}`);
  return n;
}
