/**
 * What a resource's or lookup's `opts.provider` must be: a provider of package `cloudplatform`.
 *
 * Why one module: the resource classes and the lookups refuse the same mistakes (a provider of
 * another package, something that is no provider) with the same words, and say what to pass.
 */
import * as pulumi from "@pulumi/pulumi";
import { CloudPlatformError } from "../../../provider/api/errors";
import { withoutInternalFrames } from "../../../provider/lookups/errors";
import { PROVIDER_PACKAGE } from "../provider";

/** What to pass instead of a provider of another package. */
export const PROVIDER_INSTEAD =
  `pass a provider of package "${PROVIDER_PACKAGE}" (this package's Provider class, or any pulumi.ProviderResource of package "${PROVIDER_PACKAGE}"), ` +
  `or leave it out to use this stack's cloudplatform config`;

/** The package of a provider resource, or undefined when `value` is none. */
export function providerPackage(value: unknown): string | undefined {
  if (!pulumi.CustomResource.isInstance(value)) return undefined;
  const p = value as unknown as { getPackage?: () => unknown; pkg?: unknown };
  const pkg = typeof p.getPackage === "function" ? p.getPackage() : p.pkg;
  return typeof pkg === "string" ? pkg : undefined;
}

/**
 * Why `value` cannot be the `provider` option, starting after `opts.provider`; undefined when it
 * is a provider of package `cloudplatform`.
 */
export function providerProblem(value: unknown): string | undefined {
  const pkg = providerPackage(value);
  if (pkg === undefined) return `is not a provider resource; ${PROVIDER_INSTEAD}`;
  if (pkg !== PROVIDER_PACKAGE) return `is a provider of package ${JSON.stringify(pkg)}; ${PROVIDER_INSTEAD}`;
  return undefined;
}

/**
 * A resource option the resource cannot honour (a provider of another package): ignored, it
 * would leave the resource in the stack's default account while the program names another.
 */
export class ResourceOptionError extends CloudPlatformError {
  /** The resource's Pulumi name. */
  readonly resource: string;
  /** E.g. `provider`. */
  readonly option: string;

  /**
   * @internal
   * @param problem what is wrong and what to do instead, starting after `opts.<option>`
   */
  constructor(typeName: string, resource: string, option: string, problem: string) {
    super(`${typeName} ${JSON.stringify(resource)}: opts.${option} ${problem}`);
    this.resource = resource;
    this.option = option;
    this.stack = withoutInternalFrames(this.stack);
  }
}
