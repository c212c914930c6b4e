/**
 * The Pulumi-free half of the lookups: argument checks, choosing, paging, the cache.
 *
 * Why separate from `sdk/nodejs/lookups`: everything here is plain TypeScript over the API client, so it
 * is unit-tested against the simulator without a Pulumi engine, and serves both the TypeScript
 * SDK (which adds config reading and the `getXOutput` lifting) and the plugin's functions
 * (`provider/plugin/functions.ts`, for every other language).
 */
export { LookupArgumentError, LookupMatchError, LookupOptionError } from "./errors";
export { LookupCache, cacheForScope, lookupCacheKey, keyFingerprint, stableStringify } from "./cache";
export { normalizeLookupArgs, runLookup } from "./runtime";
export type { LookupDefinition, LookupEnvironment, LookupCall, ClientOverrides } from "./runtime";
export * from "./projects";
export * from "./regions";
export * from "./instances";
export * from "./dns";
export * from "./reseller";
export * from "./iam";
export * from "./tasks";
export * from "./k8s";
export * from "./streaming";
