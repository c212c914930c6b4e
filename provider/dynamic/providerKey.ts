/**
 * The input in which `@pulumi/pulumi`'s dynamic-provider host finds the provider's code.
 *
 * Why its own module: the SDK's classes write it (`sdk/nodejs/internal/dynamicRegistration.ts`),
 * the dynamic adapter hides it from the lifecycles and puts it back on partial state; all three
 * must name the same key, and the SDK must not load the adapter to learn it.
 */
export const PROVIDER_KEY = "__provider";
