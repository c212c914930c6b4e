/** The current-client lookup: who the configured API key belongs to. */
import * as pulumi from "@pulumi/pulumi";
import { getCurrentClientLookup, type GetCurrentClientArgs, type GetCurrentClientResult } from "../../../provider/lookups/iam";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { GetCurrentClientArgs, GetCurrentClientResult };

/** `getCurrentClientOutput` arguments (none). */
export interface GetCurrentClientOutputArgs extends LookupOutputArgs<GetCurrentClientArgs> {}

/**
 * The account of the configured API key (id, email, status, ...): the client id other calls
 * need, and a cheap check that the key works. The key itself is never part of the result.
 */
export function getCurrentClient(args: GetCurrentClientArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetCurrentClientResult> {
  return invokeLookup(getCurrentClientLookup, args, opts);
}

/** {@link getCurrentClient} as an Output. */
export function getCurrentClientOutput(args: GetCurrentClientOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetCurrentClientResult> {
  return invokeLookupOutput(getCurrentClientLookup, args, opts);
}
