/**
 * Region lookups. Both read one region list per program run and filter it locally; only ACTIVE
 * regions are returned or chosen unless asked otherwise.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getRegionLookup,
  getRegionsLookup,
  type AccessLevel,
  type GetRegionArgs,
  type GetRegionResult,
  type GetRegionsArgs,
  type GetRegionsResult,
  type RegionFilters,
} from "../../../provider/lookups/regions";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { AccessLevel, GetRegionArgs, GetRegionResult, GetRegionsArgs, GetRegionsResult, RegionFilters };

/** `getRegionsOutput` arguments: those of {@link GetRegionsArgs}, each a `pulumi.Input`. */
export interface GetRegionsOutputArgs extends LookupOutputArgs<GetRegionsArgs> {}
/** `getRegionOutput` arguments: those of {@link GetRegionArgs}, each a `pulumi.Input`. */
export interface GetRegionOutputArgs extends LookupOutputArgs<GetRegionArgs> {}

/**
 * Lists regions, by default only ACTIVE ones, filtered by capability (`hasK8s`, `hasKvm`,
 * `hasDbaas`, `hasBaremetal`, `accessLevel`), so a program can pick where to deploy.
 *
 * @example const { regions } = await getRegions({ hasK8s: true });
 */
export function getRegions(args: GetRegionsArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetRegionsResult> {
  return invokeLookup(getRegionsLookup, args, opts);
}

/** {@link getRegions} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getRegionsOutput(args: GetRegionsOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetRegionsResult> {
  return invokeLookupOutput(getRegionsLookup, args, opts);
}

/**
 * Exactly one ACTIVE region by display name (or slug) and/or id, narrowed by capability filters,
 * so `regionId` comes from a readable name. Fails, naming the candidates and any matching region
 * skipped for not being ACTIVE, when zero or several match.
 *
 * @example const region = await getRegion({ name: "Luxembourg-2", hasK8s: true });
 */
export function getRegion(args: GetRegionArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetRegionResult> {
  return invokeLookup(getRegionLookup, args, opts);
}

/** {@link getRegion} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getRegionOutput(args: GetRegionOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetRegionResult> {
  return invokeLookupOutput(getRegionLookup, args, opts);
}
