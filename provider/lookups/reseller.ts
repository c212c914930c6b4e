/** WAAP reseller lookups; the API's known limits are checked before any request, not met as a 422. */
import { RESELLER_METRICS, type ConsumptionRow, type ResellerMetric } from "../api/waap/reseller";
import type { LookupDefinition } from "./runtime";
import { ArgChecker } from "./validate";

/** Largest `offset` the API accepts. */
export const MAX_RESELLER_OFFSET = 100_000;
/** Largest `limit` (page size) the API accepts. */
export const MAX_RESELLER_LIMIT = 100;

/** Arguments of `getResellerTotals`. */
export interface GetResellerTotalsArgs {
  /** One of domains, volume, requests, requests_clean. */
  readonly metric: ResellerMetric;
  /** Only these clients (default: all of the reseller's clients). */
  readonly clientIds?: readonly number[];
  /** Report start date, inclusive, `YYYY-MM-DD`. */
  readonly from: string;
  /** Report end date, exclusive, `YYYY-MM-DD`; must be after `from`. */
  readonly to: string;
  /** Rows per request, 0..100 (default 100). 0 makes one request and returns no rows. */
  readonly limit?: number;
  /** Rows to skip before the first one returned, 0..100000 (default 0). */
  readonly offset?: number;
  /** Stop after this many rows (default: all). */
  readonly maxResults?: number;
}

/** Result of `getResellerTotals`. */
export interface GetResellerTotalsResult {
  /** The consumption metric reported. */
  readonly metric: ResellerMetric;
  /** Report start date, inclusive (ISO 8601). */
  readonly from: string;
  /** Report end date, exclusive (ISO 8601). */
  readonly to: string;
  /** The client filter as sent (sorted); empty = all clients. */
  readonly clientIds: readonly number[];
  /** Daily rows, dates ascending, amounts summed over the selected clients. */
  readonly rows: readonly ConsumptionRow[];
  /** Sum of `amount` over `rows`. */
  readonly total: number;
}

/** Arguments of `getResellerPing` (none). */
export interface GetResellerPingArgs {}

/** Result of `getResellerPing`. */
export interface GetResellerPingResult {
  /** The service's answer, `pong` when healthy. */
  readonly message: string;
  /** `message === "pong"`. */
  readonly healthy: boolean;
}

interface NormalizedTotals {
  readonly metric: ResellerMetric;
  readonly clientIds: readonly number[];
  readonly from: string;
  /** Exclusive. */
  readonly to: string;
  readonly limit: number;
  readonly offset: number;
  readonly maxResults: number | undefined;
}

/** Exported for tests and reuse. */
export function normalizeResellerTotalsArgs(raw: GetResellerTotalsArgs | undefined): NormalizedTotals {
  const c = new ArgChecker("getResellerTotals", raw, ["metric", "clientIds", "from", "to", "limit", "offset", "maxResults"]);
  const metric = c.enumOf("metric", RESELLER_METRICS);
  const clientIds = c.optionalIntList("clientIds", 1) ?? [];
  const from = c.isoDate("from");
  const to = c.isoDate("to");
  if (c.isKnown("from", "to") && to <= from) c.fail("to", `must be after from (to is exclusive); got from ${JSON.stringify(from)}, to ${JSON.stringify(to)}`);
  const limit = c.optionalInt("limit", 0, MAX_RESELLER_LIMIT) ?? MAX_RESELLER_LIMIT;
  const offset = c.optionalInt("offset", 0, MAX_RESELLER_OFFSET) ?? 0;
  const maxResults = c.optionalInt("maxResults", 1);
  return { metric, clientIds, from, to, limit, offset, maxResults };
}

/** `getResellerTotals`. */
export const getResellerTotalsLookup: LookupDefinition<GetResellerTotalsArgs, NormalizedTotals, GetResellerTotalsResult> = {
  name: "getResellerTotals",
  normalize: normalizeResellerTotalsArgs,
  async execute({ client }, a) {
    const query = { clientIds: a.clientIds.length ? a.clientIds : undefined, from: a.from, to: a.to };
    // `count` is a page's size, not a total (CONTRACT.md): a short page ends the list. No offset
    // past MAX_RESELLER_OFFSET is accepted.
    const reachable = MAX_RESELLER_OFFSET + a.limit - a.offset;
    const rows: readonly ConsumptionRow[] =
      a.limit === 0
        ? (await client.waap.reseller.totals(a.metric, { ...query, limit: 0, offset: a.offset })).results.slice(0, a.maxResults)
        : await client.waap.reseller.totalsAll(a.metric, query, { pageSize: a.limit, startOffset: a.offset, max: Math.min(a.maxResults ?? Infinity, reachable) });
    return {
      metric: a.metric,
      from: a.from,
      to: a.to,
      clientIds: a.clientIds,
      rows,
      total: rows.reduce((sum, r) => sum + r.amount, 0),
    };
  },
};

/** `getResellerPing`. */
export const getResellerPingLookup: LookupDefinition<GetResellerPingArgs, Record<string, never>, GetResellerPingResult> = {
  name: "getResellerPing",
  normalize(raw) {
    new ArgChecker("getResellerPing", raw, []);
    return {};
  },
  async execute({ client }) {
    const { message } = await client.waap.reseller.ping();
    return { message, healthy: message === "pong" };
  },
};
