/** Cloud task lookups: one task by id, or a filtered list paged through. */
import * as pulumi from "@pulumi/pulumi";
import {
  getTaskLookup,
  getTasksLookup,
  type GetTaskArgs,
  type GetTaskResult,
  type GetTasksArgs,
  type GetTasksResult,
} from "../../../provider/lookups/tasks";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { GetTaskArgs, GetTaskResult, GetTasksArgs, GetTasksResult };

/** `getTaskOutput` arguments: those of {@link GetTaskArgs}, each a `pulumi.Input`. */
export interface GetTaskOutputArgs extends LookupOutputArgs<GetTaskArgs> {}
/** `getTasksOutput` arguments: those of {@link GetTasksArgs}, each a `pulumi.Input`. */
export interface GetTasksOutputArgs extends LookupOutputArgs<GetTasksArgs> {}

/**
 * One cloud task by id (state, error, created resources), so a program can report the outcome
 * of an operation started elsewhere.
 */
export function getTask(args: GetTaskArgs, opts?: pulumi.InvokeOptions): Promise<GetTaskResult> {
  return invokeLookup(getTaskLookup, args, opts);
}

/** {@link getTask} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getTaskOutput(args: GetTaskOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetTaskResult> {
  return invokeLookupOutput(getTaskLookup, args, opts);
}

/**
 * Cloud tasks filtered by project, region, state and type, all pages unless `maxResults` caps
 * it, e.g. to find operations still running before acting.
 */
export function getTasks(args: GetTasksArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetTasksResult> {
  return invokeLookup(getTasksLookup, args, opts);
}

/** {@link getTasks} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getTasksOutput(args: GetTasksOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetTasksResult> {
  return invokeLookupOutput(getTasksLookup, args, opts);
}
