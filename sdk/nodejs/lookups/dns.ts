/** The DNS delegation-status lookup (a rate-limited endpoint whose 429s are waited out). */
import * as pulumi from "@pulumi/pulumi";
import {
  getDelegationStatusLookup,
  type GetDelegationStatusArgs,
  type GetDelegationStatusResult,
} from "../../../provider/lookups/dns";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { GetDelegationStatusArgs, GetDelegationStatusResult };

/** `getDelegationStatusOutput` arguments: those of {@link GetDelegationStatusArgs}, each a `pulumi.Input`. */
export interface GetDelegationStatusOutputArgs extends LookupOutputArgs<GetDelegationStatusArgs> {}

/**
 * Whether a domain is delegated to the platform's name servers, so a program can gate DNS
 * records on it. The endpoint is rate limited: a 429 is waited out (honouring Retry-After) within
 * `rateLimitBudgetSeconds` (default 60); past the budget the lookup fails and says so.
 *
 * @example const status = await getDelegationStatus({ domain: "example.com" });
 */
export function getDelegationStatus(args: GetDelegationStatusArgs, opts?: pulumi.InvokeOptions): Promise<GetDelegationStatusResult> {
  return invokeLookup(getDelegationStatusLookup, args, opts);
}

/** {@link getDelegationStatus} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getDelegationStatusOutput(args: GetDelegationStatusOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetDelegationStatusResult> {
  return invokeLookupOutput(getDelegationStatusLookup, args, opts);
}
