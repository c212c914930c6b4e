/**
 * Which provider manages a resource of this package, and so the type token and inputs it
 * registers with.
 *
 * Why two: without a `cloudplatform` provider a resource is a dynamic resource, served from the
 * program's `node_modules` with the stack's `cloudplatform:*` config (what every existing stack
 * holds: its URNs carry the dynamic type token). Given one (`opts.provider`, or a parent whose
 * `providers` hold one, as `pulumi.CustomResource` resolves it), it registers as the
 * `cloudplatform` plugin's resource, `cloudplatform:index:<Type>`, with the same inputs, so the
 * engine hands it to that provider, the plugin configured with that provider's account. A
 * dynamic resource can have only the one account of the stack's config.
 *
 * The two tokens give two URNs for one resource, so each registration carries an alias to the
 * other token: a resource moved between the stack's account and an explicit provider (or back)
 * is then the same resource to the engine, kept as it is (measured on CLI 3.248: no replacement,
 * no API write), instead of a new event whose create would collide with the old one's identity.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceTypeName } from "../../../provider/dynamic/runtime";
import { PROVIDER_PACKAGE } from "../provider";
import { dynamicTypeToken, withProvider } from "./dynamicRegistration";
import { providerProblem, ResourceOptionError } from "./providerOption";

/** The type token of a resource type in the plugin's schema (`cloudplatform:index:StorageEvent`). */
export function pluginTypeToken(typeName: ResourceTypeName): string {
  return `${PROVIDER_PACKAGE}:index:${typeName}`;
}

/** The type token, inputs and options a resource registers with. */
export interface Registration {
  readonly type: string;
  readonly props: pulumi.Inputs;
  readonly opts: pulumi.CustomResourceOptions;
}

/**
 * The `cloudplatform` provider that manages a resource of `typeName` named `name`: `opts.provider`,
 * else the one its parent holds, else none. Throws ResourceOptionError for an `opts.provider`
 * that is no `cloudplatform` provider (Pulumi would keep such a provider for the resource's
 * children only, and the resource would silently use the stack's account).
 */
export function explicitProvider(typeName: ResourceTypeName, name: string, opts: pulumi.CustomResourceOptions | undefined): pulumi.ProviderResource | undefined {
  if (opts?.provider !== undefined) {
    const problem = providerProblem(opts.provider);
    if (problem !== undefined) throw new ResourceOptionError(typeName, name, "provider", problem);
    return opts.provider;
  }
  if (opts?.parent !== undefined && pulumi.Resource.isInstance(opts.parent)) return opts.parent.getProvider(pluginTypeToken(typeName));
  return undefined;
}

/** `opts` plus an alias to the resource's URN under the other type token (the user's aliases kept). */
function withTypeAlias(opts: pulumi.CustomResourceOptions | undefined, otherType: string): pulumi.CustomResourceOptions {
  return { ...opts, aliases: [...(opts?.aliases ?? []), { type: otherType }] };
}

/**
 * How a resource registers: as the plugin's resource with its inputs as declared when a
 * `cloudplatform` provider manages it, else as today's dynamic resource (its inputs plus the
 * `__provider` the dynamic-provider host reads); either way aliased to the other token.
 */
export function registrationOf(typeName: ResourceTypeName, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions | undefined): Registration {
  const plugin = pluginTypeToken(typeName);
  const dynamic = dynamicTypeToken(typeName);
  if (explicitProvider(typeName, name, opts) !== undefined) return { type: plugin, props, opts: withTypeAlias(opts, dynamic) };
  return { type: dynamic, props: withProvider(typeName, props), opts: withTypeAlias(opts, plugin) };
}
