/** The streaming AI task lookup: filtered, searched, ordered and paged through. */
import * as pulumi from "@pulumi/pulumi";
import {
  getStreamingAiTasksLookup,
  type GetStreamingAiTasksArgs,
  type GetStreamingAiTasksResult,
} from "../../../provider/lookups/streaming";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { GetStreamingAiTasksArgs, GetStreamingAiTasksResult };

/** `getStreamingAiTasksOutput` arguments: those of {@link GetStreamingAiTasksArgs}, each a `pulumi.Input`. */
export interface GetStreamingAiTasksOutputArgs extends LookupOutputArgs<GetStreamingAiTasksArgs> {}

/**
 * Streaming AI tasks (transcription, content moderation) with the API's filters, search and
 * ordering, all pages unless `maxResults` caps it, e.g. to report failed tasks.
 */
export function getStreamingAiTasks(args: GetStreamingAiTasksArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetStreamingAiTasksResult> {
  return invokeLookup(getStreamingAiTasksLookup, args, opts);
}

/** {@link getStreamingAiTasks} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getStreamingAiTasksOutput(
  args: GetStreamingAiTasksOutputArgs = {},
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetStreamingAiTasksResult> {
  return invokeLookupOutput(getStreamingAiTasksLookup, args, opts);
}
