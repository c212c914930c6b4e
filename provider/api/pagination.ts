/**
 * Pagination helpers for the two page styles the API uses.
 *
 * Why helpers and not per-endpoint loops: lookups "page through lists when asked for all", and
 * getting termination right (count reached, short page, empty page, a cap) once is cheaper than
 * getting it right in every caller.
 */
import { PaginationLimitError } from "./errors";

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

/** Options of the offset pager. */
export interface OffsetPagerOptions {
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

/**
 * Iterate items over offset pages until `count` is reached, a page comes back empty, or `max`
 * items were yielded; more than `maxPages` pages is a PaginationLimitError. A page shorter than
 * asked does not end the list while the total says more are left: a server may cap its pages
 * below the `limit` asked for. Without a total (`count` null) the list ends at the first empty
 * page. The last page asks only for the items still wanted, so a cap below the page size
 * fetches no more than it.
 */
export async function* iterateOffsetPages<T>(fetchPage: OffsetPageFetcher<T>, options: OffsetPagerOptions = {}): AsyncGenerator<T, void, undefined> {
  const limit = positiveInt(options.pageSize ?? 100, "pageSize");
  const max = options.max ?? Infinity;
  const maxPages = positiveInt(options.maxPages ?? DEFAULT_MAX_PAGES, "maxPages");
  const start = options.startOffset ?? 0;
  let offset = start;
  let yielded = 0;
  let pages = 0;
  // The longest page seen: the server's page size when it caps pages below `limit` (a last,
  // shorter page must not make the estimate of the pages grow).
  let longest = 0;
  while (yielded < max) {
    if (pages >= maxPages) throw new PaginationLimitError(maxPages, options.what ?? "the list");
    const want = Math.min(limit, max - yielded);
    const page = await fetchPage({ limit: want, offset });
    pages++;
    longest = Math.max(longest, page.results.length);
    if (options.onPage) {
      const received = Math.min(yielded + page.results.length, max);
      const totalItems = page.count === null ? received : Math.min(Math.max(page.count - start, 0), max);
      const perPage = Math.max(1, Math.min(limit, longest || limit));
      options.onPage({ pages, items: received, totalItems, totalPages: Math.max(pages, Math.ceil(totalItems / perPage)) });
    }
    for (const item of page.results) {
      if (yielded >= max) return;
      yield item;
      yielded++;
    }
    offset += page.results.length;
    if (page.results.length === 0 || (page.count !== null && offset >= page.count)) return;
  }
}

/** Collect all items of an offset-paged list (up to `max`). */
export async function fetchAllOffset<T>(fetchPage: OffsetPageFetcher<T>, options: OffsetPagerOptions = {}): Promise<T[]> {
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

/** Fetches page number `page` (from 1). */
export type NumberedPageFetcher<T> = (page: number) => Promise<NumberedPage<T>>;

/** Options of the page-number pager. */
export interface NumberedPagerOptions {
  /** First page number (default 1). */
  readonly startPage?: number;
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
 * send `next` is followed by the total when it sends `count`, else until an empty page.
 */
export async function* iterateNumberedPages<T>(fetchPage: NumberedPageFetcher<T>, options: NumberedPagerOptions = {}): AsyncGenerator<T, void, undefined> {
  const max = options.max ?? Infinity;
  const maxPages = positiveInt(options.maxPages ?? DEFAULT_MAX_PAGES, "maxPages");
  let page = positiveInt(options.startPage ?? 1, "startPage");
  let yielded = 0;
  let received = 0;
  for (let pages = 0; yielded < max; pages++) {
    if (pages >= maxPages) throw new PaginationLimitError(maxPages, options.what ?? "the list");
    const current = await fetchPage(page);
    received += current.results.length;
    for (const item of current.results) {
      if (yielded >= max) return;
      yield item;
      yielded++;
    }
    if (current.results.length === 0 || !morePagesAfter(current, received)) return;
    page++;
  }
}

/** Whether a numbered page announces another: by `next` when sent, else by the total, else yes (until an empty page). */
function morePagesAfter(page: NumberedPage<unknown>, received: number): boolean {
  if (page.next !== undefined) return page.next !== null;
  if (page.count !== null) return received < page.count;
  return true;
}

/** Collect all items of a page-number list (up to `max`). */
export async function fetchAllNumbered<T>(fetchPage: NumberedPageFetcher<T>, options: NumberedPagerOptions = {}): Promise<T[]> {
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
