/** WAAP reseller lookups: billing totals (validated before any request) and the health check. */
import * as pulumi from "@pulumi/pulumi";
import type { ConsumptionRow, ResellerMetric } from "../../../provider/api/waap/reseller";
import {
  getResellerPingLookup,
  getResellerTotalsLookup,
  type GetResellerPingArgs,
  type GetResellerPingResult,
  type GetResellerTotalsArgs,
  type GetResellerTotalsResult,
} from "../../../provider/lookups/reseller";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { ConsumptionRow, ResellerMetric, GetResellerPingArgs, GetResellerPingResult, GetResellerTotalsArgs, GetResellerTotalsResult };

/** `getResellerTotalsOutput` arguments: those of {@link GetResellerTotalsArgs}, each a `pulumi.Input`. */
export interface GetResellerTotalsOutputArgs extends LookupOutputArgs<GetResellerTotalsArgs> {}
/** `getResellerPingOutput` arguments (none). */
export interface GetResellerPingOutputArgs extends LookupOutputArgs<GetResellerPingArgs> {}

/**
 * Daily billable consumption of one metric over `[from, to)`, summed over the selected clients,
 * all pages unless capped. The arguments are checked before any request: `metric` one of
 * domains, volume, requests, requests_clean; `limit` 0..100; `offset` 0..100000; dates
 * `YYYY-MM-DD` with `to` after `from`.
 *
 * @example const t = await getResellerTotals({ metric: "requests", clientIds: [101], from: "2026-09-01", to: "2026-10-01" });
 */
export function getResellerTotals(args: GetResellerTotalsArgs, opts?: pulumi.InvokeOptions): Promise<GetResellerTotalsResult> {
  return invokeLookup(getResellerTotalsLookup, args, opts);
}

/** {@link getResellerTotals} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getResellerTotalsOutput(args: GetResellerTotalsOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetResellerTotalsResult> {
  return invokeLookupOutput(getResellerTotalsLookup, args, opts);
}

/**
 * The reseller health check; `message` is `pong` and `healthy` true when the service answers,
 * so a pipeline can stop early when it is down.
 */
export function getResellerPing(args: GetResellerPingArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetResellerPingResult> {
  return invokeLookup(getResellerPingLookup, args, opts);
}

/** {@link getResellerPing} as an Output. */
export function getResellerPingOutput(args: GetResellerPingOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetResellerPingResult> {
  return invokeLookupOutput(getResellerPingLookup, args, opts);
}
