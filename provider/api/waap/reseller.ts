/** WAAP reseller totals and health check, for the `getResellerTotals` and `getResellerPing` lookups. */
import { fetchAllOffset, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { int, optionalCount, readonlyList, text, type Answer } from "../schema";
import { ConfigurationError } from "../errors";
import { sourceOf, type OptionSources } from "../optionNames";

/** Billable metrics. */
export type ResellerMetric = "domains" | "volume" | "requests" | "requests_clean";

/** For validation in lookups. */
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

/**
 * `spec` (default): the API reference's `/waap/reseller/...` paths; `public`: the public OpenAPI's
 * (`waap_reseller_api.yaml`) and the official Python SDK's `/waap/v1/prebilling/total/{metric}`
 * and `/waap/ping`. The sources disagree; the reference governs, but the other must be reachable.
 */
export type ResellerPaths = "spec" | "public";

export const RESELLER_PATHS: readonly ResellerPaths[] = ["spec", "public"];

const PATH_PREFIXES: Readonly<Record<ResellerPaths, { readonly totals: string; readonly ping: string }>> = {
  spec: { totals: "/waap/reseller/v1/prebilling/total", ping: "/waap/reseller/ping" },
  public: { totals: "/waap/v1/prebilling/total", ping: "/waap/ping" },
};

/** Undefined or "" is the default, `spec`. */
export function parseResellerPaths(value: string | undefined, sources?: OptionSources): ResellerPaths {
  if (value === undefined || value === "") return "spec";
  if ((RESELLER_PATHS as readonly string[]).includes(value)) return value as ResellerPaths;
  throw new ConfigurationError(`resellerPaths must be one of ${RESELLER_PATHS.join(", ")}, got ${JSON.stringify(value)}: set ${sourceOf("resellerPaths", sources)}.`);
}

/** Bind the reseller functions to a transport, calling the endpoints at `paths`. */
export function resellerApi(t: Transport, paths: ResellerPaths = "spec"): ResellerApi {
  const at = PATH_PREFIXES[paths];
  const totals: ResellerApi["totals"] = async (metric, params, options) => {
    const res = await t.request({
      method: "GET",
      path: at.totals + apiPath`/${metric}`,
      query: { client_ids: params.clientIds, from: params.from, to: params.to, limit: params.limit, offset: params.offset },
      options,
      response: consumptionPageSchema,
    });
    return res.data;
  };
  return {
    totals,
    totalsAll: (metric, params, pager = {}, options) =>
      // `count` is the number of items in this page, not a total, so paging stops on a short page.
      fetchAllOffset(async (p) => {
        const page = await totals(metric, { ...params, ...p }, options);
        return { count: page.results.length < p.limit ? p.offset + page.results.length : Number.MAX_SAFE_INTEGER, results: page.results };
      }, { pageSize: 100, what: `GET ${at.totals}${apiPath`/${metric}`}`, ...pager, idOf: (r) => r.date }),
    async ping(options) {
      const res = await t.request({ method: "GET", path: at.ping, options, response: pingSchema });
      return res.data;
    },
  };
}

/** `client.waap`. */
export interface WaapApi {
  readonly reseller: ResellerApi;
}

/** Bind the WAAP group to a transport, the reseller endpoints at `resellerPaths`. */
export function waapApi(t: Transport, resellerPaths: ResellerPaths = "spec"): WaapApi {
  return Object.freeze({ reseller: resellerApi(t, resellerPaths) });
}
