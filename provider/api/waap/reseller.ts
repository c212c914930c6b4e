/**
 * WAAP reseller: billable consumption totals and the health check.
 *
 * Why: the `getResellerTotals` and `getResellerPing` lookups. Errors come as problem+json; the
 * transport puts `detail` and each `errors[].loc`/`detail` into the message.
 */
import { fetchAllOffset, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { count, readonlyList, text, type Answer } from "../schema";

/** Billable metrics. */
export type ResellerMetric = "domains" | "volume" | "requests" | "requests_clean";

/** Every metric, for validation in lookups. */
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

const consumptionRowFields = z.object({ date: text, amount: z.number() }).transform((r) => ({
  /** Day of the row, ISO 8601 date. */
  date: r.date,
  /** Billable amount consumed that day. */
  amount: r.amount,
}));

/** One daily consumption row. */
export interface ConsumptionRow extends Answer<typeof consumptionRowFields> {}

const consumptionRowSchema: z.ZodType<ConsumptionRow> = consumptionRowFields;

/** A consumption page: every field is required (the spec's table), so is each row's `date` and `amount`. */
export const consumptionPageSchema = z
  .object({
    limit: count,
    offset: count,
    count,
    results: z.array(consumptionRowSchema).transform(readonlyList),
  })
  .transform((w) => ({
    limit: w.limit,
    offset: w.offset,
    /** As the server reports it. */
    count: w.count,
    results: w.results,
  }));

/** A consumption page. */
export interface ConsumptionPage extends Answer<typeof consumptionPageSchema> {}

/** The health check answer: `{message}`. */
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
  /** Every consumption row (pages of `pageSize`, at most 100). */
  totalsAll(metric: ResellerMetric | string, params: Omit<ResellerTotalsParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<ConsumptionRow[]>;
  /** Health check; `message` is `pong` when healthy. */
  ping(options?: RequestOptions): Promise<ResellerPing>;
}

/** Bind the reseller functions to a transport. */
export function resellerApi(t: Transport): ResellerApi {
  const totals: ResellerApi["totals"] = async (metric, params, options) => {
    const res = await t.request({
      method: "GET",
      path: apiPath`/waap/reseller/v1/prebilling/total/${metric}`,
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
      }, { pageSize: 100, what: `GET ${apiPath`/waap/reseller/v1/prebilling/total/${metric}`}`, ...pager, idOf: (r) => r.date }),
    async ping(options) {
      const res = await t.request({ method: "GET", path: "/waap/reseller/ping", options, response: pingSchema });
      return res.data;
    },
  };
}

/** `client.waap`. */
export interface WaapApi {
  readonly reseller: ResellerApi;
}

/** Bind the WAAP group to a transport. */
export function waapApi(t: Transport): WaapApi {
  return Object.freeze({ reseller: resellerApi(t) });
}
