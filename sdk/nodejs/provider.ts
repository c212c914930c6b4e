/**
 * `Provider`: one account of the platform, for the resources and lookups given it in their
 * `opts`.
 *
 * Why: a program that works in several accounts (production and staging, a reseller and its
 * clients) declares one provider per account, as with every Pulumi package. It is the
 * `cloudplatform` plugin's provider (`pulumi:providers:cloudplatform`), registered as the
 * Provider class of a generated SDK registers it, so its settings are those of the stack config
 * `cloudplatform:*` and the plugin's `CheckConfig` checks them before anything runs.
 */
import * as pulumi from "@pulumi/pulumi";
import { VERSION } from "../../provider/api/version";

/** The package of the provider, as in the plugin's schema and the `cloudplatform:*` config keys. */
export const PROVIDER_PACKAGE = "cloudplatform";

/**
 * Arguments of {@link Provider}: the settings of the stack config `cloudplatform:*`, each falling
 * back, when left out, to the same environment variable as the config.
 */
export interface ProviderArgs {
  /**
   * API key of the account. Stored as a secret (wrapped with `pulumi.secret`) whatever you pass.
   * Falls back to CLOUDPLATFORM_API_KEY.
   */
  apiKey?: pulumi.Input<string>;
  /** Base URL of the platform API. Falls back to CLOUDPLATFORM_BASE_URL. */
  baseUrl?: pulumi.Input<string>;
  /**
   * Allow a plain `http://` base URL to a host other than this machine (the key then travels in
   * cleartext). Off by default; http to localhost, 127.0.0.1 and ::1 is always allowed. Falls
   * back to CLOUDPLATFORM_ALLOW_INSECURE_HTTP.
   */
  allowInsecureHttp?: pulumi.Input<boolean>;
  /**
   * Requests in flight to the API at most, from 1 to 256 (default 8), for everything this
   * provider sends. Falls back to CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS.
   */
  maxConcurrentRequests?: pulumi.Input<number>;
  /**
   * Where the WAAP reseller endpoints are: `auto` (default: the public OpenAPI's paths, the API
   * reference's after a 404 there), `public` or `spec`. Falls back to CLOUDPLATFORM_RESELLER_PATHS.
   */
  resellerPaths?: pulumi.Input<"auto" | "public" | "spec">;
}

/** A non-string setting as a generated Node SDK sends it: its JSON text, or nothing. */
function asJson<T>(value: pulumi.Input<T> | undefined): pulumi.Output<string> | undefined {
  return value === undefined ? undefined : pulumi.output(value).apply((v) => (v === undefined || v === null ? undefined : JSON.stringify(v))) as pulumi.Output<string>;
}

/**
 * The `cloudplatform` provider: one account (key and base URL) for the resources and lookups that
 * get it through `{ provider }` or a parent's `providers`. Those run in the `cloudplatform`
 * plugin, which must be installed (the package's bin `pulumi-resource-cloudplatform` on PATH, or
 * `pulumi plugin install`); resources and lookups without one keep using the stack's config.
 *
 * @example
 * ```ts
 * const staging = new cloud.Provider("staging", { baseUrl: "https://api.example-cloud.com", apiKey: config.requireSecret("stagingApiKey") });
 * new cloud.StorageEvent("staging-space", { name: "reaching_used_space", storageName: "media", bytes: 1_000_000 }, { provider: staging });
 * ```
 */
export class Provider extends pulumi.ProviderResource {
  /** @internal */
  static readonly __pulumiType = PROVIDER_PACKAGE;

  /** Whether `obj` is a `cloudplatform` provider (works across copies of this package). */
  static override isInstance(obj: unknown): obj is Provider {
    if (obj === undefined || obj === null || typeof obj !== "object") return false;
    return (obj as { __pulumiType?: unknown }).__pulumiType === `pulumi:providers:${Provider.__pulumiType}`;
  }

  /** The API key (a secret). */
  declare readonly apiKey: pulumi.Output<string | undefined>;
  /** The base URL. */
  declare readonly baseUrl: pulumi.Output<string | undefined>;
  /** Where the WAAP reseller endpoints are. */
  declare readonly resellerPaths: pulumi.Output<string | undefined>;

  /**
   * @param name the provider's Pulumi name (unique among the stack's providers)
   * @param args the account's settings; each one left out falls back to its environment variable
   * @param opts standard resource options (the plugin version defaults to this package's)
   */
  constructor(name: string, args?: ProviderArgs, opts?: pulumi.ResourceOptions) {
    const inputs: pulumi.Inputs = {
      apiKey: args?.apiKey === undefined ? undefined : pulumi.secret(args.apiKey),
      baseUrl: args?.baseUrl,
      allowInsecureHttp: asJson(args?.allowInsecureHttp),
      maxConcurrentRequests: asJson(args?.maxConcurrentRequests),
      resellerPaths: args?.resellerPaths,
    };
    const merged = pulumi.mergeOptions({ version: VERSION }, opts);
    super(Provider.__pulumiType, name, inputs, pulumi.mergeOptions(merged, { additionalSecretOutputs: ["apiKey"] }));
  }
}
