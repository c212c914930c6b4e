/**
 * Project lookups. Both read one project list per program run, so asking for the default
 * project and for the list in many places costs one request.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getProjectLookup,
  getProjectsLookup,
  type GetProjectArgs,
  type GetProjectResult,
  type GetProjectsArgs,
  type GetProjectsResult,
} from "../../../provider/lookups/projects";
import { invokeLookup, invokeLookupOutput, type LookupOutputArgs } from "./invoke";

export type { GetProjectArgs, GetProjectResult, GetProjectsArgs, GetProjectsResult };

/** `getProjectsOutput` arguments: those of {@link GetProjectsArgs}, each a `pulumi.Input`. */
export interface GetProjectsOutputArgs extends LookupOutputArgs<GetProjectsArgs> {}
/** `getProjectOutput` arguments: those of {@link GetProjectArgs}, each a `pulumi.Input`. */
export interface GetProjectOutputArgs extends LookupOutputArgs<GetProjectArgs> {}

/**
 * Lists the cloud projects visible to the API key, so a program can find project ids without
 * hard-coding them.
 *
 * @example const { projects } = await getProjects();
 */
export function getProjects(args: GetProjectsArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetProjectsResult> {
  return invokeLookup(getProjectsLookup, args, opts);
}

/** {@link getProjects} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getProjectsOutput(args: GetProjectsOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetProjectsResult> {
  return invokeLookupOutput(getProjectsLookup, args, opts);
}

/**
 * One project by exact `name` and/or `id`, or the default project when neither is given, so
 * resources can take `projectId` from a name. Fails, naming the candidates, when zero or several
 * projects match.
 *
 * @example const project = await getProject(); // the default project
 */
export function getProject(args: GetProjectArgs = {}, opts?: pulumi.InvokeOptions): Promise<GetProjectResult> {
  return invokeLookup(getProjectLookup, args, opts);
}

/** {@link getProject} with `pulumi.Input` arguments; no request while an input is unknown. */
export function getProjectOutput(args: GetProjectOutputArgs = {}, opts?: pulumi.InvokeOptions): pulumi.Output<GetProjectResult> {
  return invokeLookupOutput(getProjectLookup, args, opts);
}
