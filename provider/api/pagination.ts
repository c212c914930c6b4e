/** The two page styles of the API, paged once here so termination is right in every caller. */
import { PaginationLimitError } from "./errors";
import { ShiftTracker, numberedWindow, wholeNumberOption, type ShiftOptions } from "./pageAnchors";

/** Far above any real list, low enough that an endless next page fails clearly. */
export const DEFAULT_MAX_PAGES = 1000;

/** An offset page; `count` is the total, or null where the endpoint sends none (regions). */
export interface OffsetPage<T> {
  readonly count: number | null;
  readonly results: readonly T[];
}

/** Fetches one offset page. */
export type OffsetPageFetcher<T> = (page: { readonly limit: number; readonly offset: number }) => Promise<OffsetPage<T>>;

/** Options of the offset pager; with `idOf`, a list that changes while it is read is followed (see ShiftOptions). */
export interface OffsetPagerOptions<T = unknown> extends ShiftOptions<T> {
  /** Sent as `limit` (default 100). */
  readonly pageSize?: number;
  readonly startOffset?: number;
  readonly max?: number;
  /** Default {@link DEFAULT_MAX_PAGES}. */
  readonly maxPages?: number;
  /** What is listed, for error messages (e.g. `GET /cloud/v1/projects`). */
  readonly what?: string;
  readonly onPage?: (progress: PageProgress) => void;
}

/** Where a paged listing stands after a page arrived. */
export interface PageProgress {
  readonly pages: number;
  /** Capped at `max`, like `totalItems`. */
  readonly items: number;
  readonly totalPages: number;
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
 * Items over offset pages. A short page does not end the list while the total says more are
 * left: a server may cap its pages below the `limit` asked for.
 */
export async function* iterateOffsetPages<T>(fetchPage: OffsetPageFetcher<T>, options: OffsetPagerOptions<T> = {}): AsyncGenerator<T, void, undefined> {
  const limit = wholeNumberOption(options.pageSize ?? 100, 1, "pageSize");
  const max = options.max ?? Infinity;
  const maxPages = wholeNumberOption(options.maxPages ?? DEFAULT_MAX_PAGES, 1, "maxPages");
  const start = options.startOffset ?? 0;
  const tracker = new ShiftTracker<T>(options.what ?? "the list", options);
  let position = start;
  let yielded = 0;
  let pages = 0;
  // The server's page size when it caps pages below `limit`.
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

/** Pages needed count the first page whole and each later one less the items it re-reads. */
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

/** All items of an offset-paged list (up to `max`). */
export async function fetchAllOffset<T>(fetchPage: OffsetPageFetcher<T>, options: OffsetPagerOptions<T> = {}): Promise<T[]> {
  return collect(iterateOffsetPages(fetchPage, options));
}

/** A page-number page (streaming AI tasks); the server may leave out every field but the results. */
export interface NumberedPage<T> {
  readonly count: number | null;
  /** The next page's query (`page=2`), null on the last page, undefined when not sent. */
  readonly next: string | null | undefined;
  readonly previous: string | null;
  readonly results: readonly T[];
}

/** `limit` is undefined unless the pager was given a `pageSize`. */
export type NumberedPageFetcher<T> = (page: number, limit: number | undefined) => Promise<NumberedPage<T>>;

/** Options of the page-number pager; with `idOf` (and `pageSize`), a changing list is followed (see ShiftOptions). */
export interface NumberedPagerOptions<T = unknown> extends ShiftOptions<T> {
  readonly startPage?: number;
  /** Without it the fetcher picks its own size; with `idOf` too, pages overlap by a few items. */
  readonly pageSize?: number;
  readonly max?: number;
  /** Default {@link DEFAULT_MAX_PAGES}. */
  readonly maxPages?: number;
  /** What is listed, for error messages. */
  readonly what?: string;
}

/**
 * Items over numbered pages. A server that serves fewer than asked while announcing more is
 * taken to cap its pages at that size.
 */
export async function* iterateNumberedPages<T>(fetchPage: NumberedPageFetcher<T>, options: NumberedPagerOptions<T> = {}): AsyncGenerator<T, void, undefined> {
  const max = options.max ?? Infinity;
  const maxPages = wholeNumberOption(options.maxPages ?? DEFAULT_MAX_PAGES, 1, "maxPages");
  const startPage = wholeNumberOption(options.startPage ?? 1, 1, "startPage");
  let size = options.pageSize === undefined ? undefined : wholeNumberOption(options.pageSize, 1, "pageSize");
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
    if (placed.fresh.length === 0 && w.limit !== undefined && length < w.limit && length < longestBefore) return;
  }
}

/** Whether a numbered page announces another: by `next` when sent, else by the total, else yes (until an empty page). */
function morePagesAfter(page: NumberedPage<unknown>, reached: number): boolean {
  if (page.next !== undefined) return page.next !== null;
  if (page.count !== null) return reached < page.count;
  return true;
}

/** All items of a page-number list (up to `max`). */
export async function fetchAllNumbered<T>(fetchPage: NumberedPageFetcher<T>, options: NumberedPagerOptions<T> = {}): Promise<T[]> {
  return collect(iterateNumberedPages(fetchPage, options));
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
