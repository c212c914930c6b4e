/** WAAP reseller totals and health check, for the `getResellerTotals` and `getResellerPing` lookups. */
import { fetchAllOffset, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { int, optionalCount, readonlyList, text, type Answer } from "../schema";
import { atResellerPaths, RESELLER_PATH_PREFIXES, type ResellerPaths } from "./resellerPaths";

export { parseResellerPaths, RESELLER_PATHS, type ResellerPaths } from "./resellerPaths";

/** Billable metrics. */
export type ResellerMetric = "domains" | "volume" | "requests" | "requests_clean";

/**
 * For validation in lookups: the path parameter's enum of `GET /waap/v1/prebilling/total/{metric}`
 * (waap_reseller_api.yaml at G-Core/product-documentation 5b666307, inline, title `Metric`).
 */
export const RESELLER_METRICS: readonly ResellerMetric[] = ["domains", "volume", "requests", "requests_clean"];

/** Query of the totals call. */
export interface ResellerTotalsParams {
  /** Filter by client ids (repeated `client_ids` keys). */
  readonly clientIds?: readonly number[];
  /** Report start date, inclusive, ISO 8601 (`from`). */
  readonly from: string;
  /** Report end date, exclusive, ISO 8601 (`to`). */
  readonly to: string;
  /** 0..100 (server default 100). */
  readonly limit?: number;
  /** 0..100000 (server default 0). */
  readonly offset?: number;
}

const consumptionRowFields = z.object({ date: text, amount: int }).transform((r) => ({
  /** Day of the row, ISO 8601 date. */
  date: r.date,
  /** Billable amount consumed that day: a whole number (domains, bytes or requests). */
  amount: r.amount,
}));

/** One daily consumption row. */
export interface ConsumptionRow extends Answer<typeof consumptionRowFields> {}

const consumptionRowSchema: z.ZodType<ConsumptionRow> = consumptionRowFields;

/** Only the rows are required: no decision reads `limit`, `offset` or `count` (paging stops on a short page). */
export const consumptionPageSchema = z
  .object({
    limit: optionalCount,
    offset: optionalCount,
    count: optionalCount,
    results: z.array(consumptionRowSchema).transform(readonlyList),
  })
  .transform((w) => ({
    /** The page size the server applied, when sent. */
    limit: w.limit,
    /** The offset of the page, when sent. */
    offset: w.offset,
    /** The rows in this page (not a total), when sent. */
    count: w.count,
    results: w.results,
  }));

/** A consumption page. */
export interface ConsumptionPage extends Answer<typeof consumptionPageSchema> {}

export const pingSchema = z.object({ message: text }).transform((w) => ({
  /** `pong` when healthy. */
  message: w.message,
}));

/** The health check answer. */
export interface ResellerPing extends Answer<typeof pingSchema> {}

/** The reseller functions of the client. */
export interface ResellerApi {
  /** One page of aggregated billable consumption for `metric`. */
  totals(metric: ResellerMetric | string, params: ResellerTotalsParams, options?: RequestOptions): Promise<ConsumptionPage>;
  /** Pages of `pageSize`, at most 100. */
  totalsAll(metric: ResellerMetric | string, params: Omit<ResellerTotalsParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<ConsumptionRow[]>;
  /** Health check; `message` is `pong` when healthy. */
  ping(options?: RequestOptions): Promise<ResellerPing>;
}

/** Bind the reseller functions to a transport, calling the endpoints at `paths` (see `resellerPaths.ts`). */
export function resellerApi(t: Transport & { readonly baseUrl: string }, paths: ResellerPaths = "auto"): ResellerApi {
  const totals: ResellerApi["totals"] = (metric, params, options) =>
    atResellerPaths(t.baseUrl, paths, (RESELLER_METRICS as readonly string[]).includes(metric), async (form) => {
      const res = await t.request({
        method: "GET",
        path: RESELLER_PATH_PREFIXES[form].totals + apiPath`/${metric}`,
        query: { client_ids: params.clientIds, from: params.from, to: params.to, limit: params.limit, offset: params.offset },
        options,
        response: consumptionPageSchema,
      });
      return res.data;
    });
  return {
    totals,
    totalsAll: (metric, params, pager = {}, options) =>
      // `count` is the number of items in this page, not a total, so paging stops on a short page.
      fetchAllOffset(async (p) => {
        const page = await totals(metric, { ...params, ...p }, options);
        return { count: page.results.length < p.limit ? p.offset + page.results.length : Number.MAX_SAFE_INTEGER, results: page.results };
      }, { pageSize: 100, what: `the reseller ${metric} totals`, ...pager, idOf: (r) => r.date }),
    ping: (options) =>
      atResellerPaths(t.baseUrl, paths, true, async (form) => {
        const res = await t.request({ method: "GET", path: RESELLER_PATH_PREFIXES[form].ping, options, response: pingSchema });
        return res.data;
      }),
  };
}

/** `client.waap`. */
export interface WaapApi {
  readonly reseller: ResellerApi;
}

/** Bind the WAAP group to a transport, the reseller endpoints at `resellerPaths`. */
export function waapApi(t: Transport & { readonly baseUrl: string }, resellerPaths: ResellerPaths = "auto"): WaapApi {
  return Object.freeze({ reseller: resellerApi(t, resellerPaths) });
}
