/**
 * The lookups (data sources): `getX(args, opts?) => Promise<GetXResult>` and
 * `getXOutput(args, opts?) => Output<GetXResult>` for each of projects, regions, instances,
 * delegation status, reseller totals and ping, current client, tasks, Kubernetes clusters and
 * upgrade versions, and streaming AI tasks.
 *
 * Why plain functions: the TypeScript SDK needs no plugin (its resources are dynamic resources,
 * and a dynamic provider cannot serve invokes), so each lookup runs in the program process with
 * the program's config (`cloudplatform:apiKey`, `cloudplatform:baseUrl`, or the CLOUDPLATFORM_*
 * environment variables). Arguments are checked before any request, lists are paged through,
 * and identical lookups in one program run share one request. The plugin serves the same
 * lookups as functions to every other language (`provider/plugin/functions.ts`); under Pulumi's
 * mocks, and with an explicit `cloudplatform` provider (or `version`, `pluginDownloadURL`) in
 * `opts`, a lookup goes through the engine to it, token `cloudplatform:index:getX`.
 */
export * from "./lookups/projects";
export * from "./lookups/regions";
export * from "./lookups/instances";
export * from "./lookups/dns";
export * from "./lookups/reseller";
export * from "./lookups/iam";
export * from "./lookups/tasks";
export * from "./lookups/k8s";
export * from "./lookups/streaming";
export type { LookupOutputArgs } from "./lookups/invoke";
export { LookupArgumentError, LookupMatchError, LookupOptionError } from "../../provider/lookups/errors";
