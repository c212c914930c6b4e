/**
 * A paged list endpoint declared once: its path, the wire name of each filter and its page's
 * schema give `list` (one page, as the API pages it) and `listAll` (every item, through the
 * pagers, each item once while the list changes), so no endpoint writes the binding out again.
 */
import { fetchAllNumbered, fetchAllOffset, type NumberedPage, type NumberedPagerOptions, type OffsetPage, type OffsetPagerOptions } from "./pagination";
import type { ItemId } from "./pageAnchors";
import type { ResponseSchema } from "./schema";
import type { RequestOptions, Transport } from "./transport";
import type { Query, QueryValue } from "./url";

/** Filters whose values a query string can carry, by their camelCase names. */
export type ListFilters<P> = { readonly [K in keyof P]?: QueryValue };

/** The wire name of every filter: a filter declared but never sent is a type error. */
export type QueryNames<P> = { readonly [K in keyof P]-?: string };

/** What a paged endpoint declares; `At` are its path's parameters. */
export interface PagedEndpointSpec<At extends readonly unknown[], P, Page, T> {
  /**
   * The path for the path's parameters (build it with `apiPath`). How many parameters it
   * declares is how many leading arguments of `list` and `listAll` are the path's.
   */
  readonly path: (...at: At) => string;
  readonly query: QueryNames<P>;
  readonly page: ResponseSchema<Page>;
  /** An item's identity, by which `listAll` follows a list that changes while it is read. */
  readonly idOf: (item: T) => ItemId;
}

/** An offset-paged endpoint's functions, after its path's parameters. */
export interface OffsetEndpoint<At extends readonly unknown[], P, T> {
  list(...args: [...at: At, params?: P, options?: RequestOptions]): Promise<OffsetPage<T>>;
  listAll(...args: [...at: At, params?: Omit<P, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions]): Promise<T[]>;
}

/** The filters every offset-paged endpoint has. */
export interface OffsetFilters {
  readonly limit?: number;
  readonly offset?: number;
}

/** Bind an offset-paged (`limit`/`offset`) endpoint to a transport. */
export function offsetEndpoint<At extends readonly unknown[], P extends ListFilters<P> & OffsetFilters, T>(
  t: Transport,
  spec: PagedEndpointSpec<At, P, OffsetPage<T>, T>,
): OffsetEndpoint<At, P, T> {
  const pageOf = pageRequest(t, spec);
  return {
    list: onePage(spec, pageOf),
    listAll: (...args) => {
      const { at, rest } = splitArgs(spec, args);
      const [params = {}, pager = {}, options] = rest as [Omit<P, "limit" | "offset">?, OffsetPagerOptions?, RequestOptions?];
      return fetchAllOffset((p) => pageOf(at, { ...params, ...p } as P, options), { what: `GET ${spec.path(...at)}`, ...pager, idOf: spec.idOf });
    },
  };
}

/** A page-number endpoint's functions, after its path's parameters. */
export interface NumberedEndpoint<At extends readonly unknown[], P, T> {
  list(...args: [...at: At, params?: P, options?: RequestOptions]): Promise<NumberedPage<T>>;
  listAll(...args: [...at: At, params?: Omit<P, "page">, pager?: NumberedPagerOptions, options?: RequestOptions]): Promise<T[]>;
}

/** The filters every page-number endpoint has. */
export interface NumberedFilters {
  readonly page?: number;
  readonly limit?: number;
}

/** A page-number endpoint's declaration. */
export interface NumberedEndpointSpec<At extends readonly unknown[], P, T> extends PagedEndpointSpec<At, P, NumberedPage<T>, T> {
  /** `listAll`'s page size when neither its `limit` filter nor its pager names one. */
  readonly defaultPageSize: number;
}

/** Bind a page-number (`page`/`limit`) endpoint to a transport. */
export function numberedEndpoint<At extends readonly unknown[], P extends ListFilters<P> & NumberedFilters, T>(
  t: Transport,
  spec: NumberedEndpointSpec<At, P, T>,
): NumberedEndpoint<At, P, T> {
  const pageOf = pageRequest(t, spec);
  return {
    list: onePage(spec, pageOf),
    listAll: (...args) => {
      const { at, rest } = splitArgs(spec, args);
      const [params = {} as Omit<P, "page">, pager = {}, options] = rest as [Omit<P, "page">?, NumberedPagerOptions?, RequestOptions?];
      return fetchAllNumbered((page, limit) => pageOf(at, { ...params, page, limit } as P, options), {
        what: `GET ${spec.path(...at)}`,
        pageSize: params.limit ?? spec.defaultPageSize,
        ...pager,
        idOf: spec.idOf,
      });
    },
  };
}

/** The query of `params` by wire name, in the order the names are declared. */
export function queryOf<P>(names: QueryNames<P>, params: P): Query {
  const query: Record<string, QueryValue> = {};
  for (const key of Object.keys(names) as (keyof P & string)[]) query[names[key]] = params[key] as QueryValue;
  return query;
}

function pageRequest<At extends readonly unknown[], P, Page, T>(t: Transport, spec: PagedEndpointSpec<At, P, Page, T>) {
  return async (at: At, params: P = {} as P, options?: RequestOptions): Promise<Page> => {
    const res = await t.request({ method: "GET", path: spec.path(...at), query: queryOf(spec.query, params), options, response: spec.page });
    return res.data;
  };
}

/** `list`: the path's parameters, then the filters and the request options. */
function onePage<At extends readonly unknown[], P, Page>(spec: { readonly path: (...at: At) => string }, pageOf: (at: At, params?: P, options?: RequestOptions) => Promise<Page>) {
  return (...args: readonly unknown[]): Promise<Page> => {
    const { at, rest } = splitArgs(spec, args);
    return pageOf(at, rest[0] as P | undefined, rest[1] as RequestOptions | undefined);
  };
}

function splitArgs<At extends readonly unknown[]>(spec: { readonly path: (...at: At) => string }, args: readonly unknown[]): { at: At; rest: readonly unknown[] } {
  return { at: args.slice(0, spec.path.length) as unknown as At, rest: args.slice(spec.path.length) };
}
