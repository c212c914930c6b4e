/** The instance lookup: every VM of a project in a region, paged through. */
import * as pulumi from "@pulumi/pulumi";
import {
  getInstancesLookup,
  type GetInstancesArgs,
  type GetInstancesResult,
  type InstanceStatus,
} from "../../../provider/lookups/instances";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { GetInstancesArgs, GetInstancesResult, InstanceStatus };

/** `getInstancesOutput` arguments: those of {@link GetInstancesArgs}, each a `pulumi.Input`. */
export interface GetInstancesOutputArgs extends LookupOutputArgs<GetInstancesArgs> {}

/**
 * Every instance of a project in a region (all pages unless `maxResults` caps it), so a program
 * can feed instance ids or addresses to other resources.
 *
 * @example const { instances } = await getInstances({ projectId: 1, regionId: 76 });
 */
export function getInstances(args: GetInstancesArgs, opts?: pulumi.InvokeOptions): Promise<GetInstancesResult> {
  return invokeLookup(getInstancesLookup, args, opts);
}

/** {@link getInstances} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getInstancesOutput(args: GetInstancesOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetInstancesResult> {
  return invokeLookupOutput(getInstancesLookup, args, opts);
}
