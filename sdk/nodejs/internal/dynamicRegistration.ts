/**
 * How the SDK's resource classes register with the engine's Node.js dynamic-provider host.
 *
 * Why not `pulumi.dynamic.Resource`: it serializes a provider object's closures into every
 * resource's `__provider`, stored twice per resource (inputs and outputs), and a `file://`, S3,
 * Azure Blob or GCS backend rewrites the whole checkpoint at every step, so each byte is paid
 * N times per resource in a stack of N. The host (`@pulumi/pulumi/cmd/dynamic-provider`, the
 * same from 3.139 to 3.270) only needs text that, loaded with `require-from-string`, exports a
 * `handler()` returning the provider object; it caches that object per text and calls its
 * `configure` once. So each class is a `pulumi.CustomResource` registered under the type token
 * `pulumi.dynamic.Resource` would give it (existing stacks' URNs hold it), with a one-line
 * `__provider` of our own: it `require`s the runtime module by package name in the provider
 * process (no key, no HTTP library in state), so the installed version of this package serves
 * every resource, old ones included. The classes extend `CustomResource` directly, like
 * generated SDKs: Pulumi then records the user's line as the source position (it skips a fixed
 * number of constructor frames), not ours, and one stack frame less in every resource's state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { PROVIDER_KEY } from "../../../provider/dynamic/providerKey";
import type { ResourceTypeName } from "../../../provider/dynamic/runtime";

/** Module name under which resources register (`pulumi-nodejs:dynamic/cloudplatform:<Type>`). */
const DYNAMIC_MODULE = "cloudplatform";

/** What the provider text `require`s in the provider process (package.json `exports`). */
const RUNTIME_MODULE = "pulumi-cloudplatform/internal/dynamic";

/**
 * The `__provider` text of one type: the same string for every resource of the type (the host
 * loads and configures each distinct text once per process).
 */
export function providerSource(typeName: ResourceTypeName): string {
  return `exports.handler=()=>require(${JSON.stringify(RUNTIME_MODULE)}).providers.${typeName}`;
}

/** The type token `pulumi.dynamic.Resource` gives a type of module {@link DYNAMIC_MODULE}. */
export function dynamicTypeToken(typeName: ResourceTypeName): string {
  return `pulumi-nodejs:dynamic/${DYNAMIC_MODULE}:${typeName}`;
}

/** A class's inputs plus the `__provider` the host reads on every call. */
export function withProvider(typeName: ResourceTypeName, props: pulumi.Inputs): pulumi.Inputs {
  return { ...props, [PROVIDER_KEY]: providerSource(typeName) };
}
