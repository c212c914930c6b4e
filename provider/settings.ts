/**
 * Where the provider's connection settings come from.
 *
 * Why one function: the dynamic provider (config via `configure()`), the plugin (config via
 * its `Configure`) and the TypeScript SDK's lookups (config of the running program) must pick
 * the API key and base URL by the same rule: stack config
 * `cloudplatform:apiKey` / `cloudplatform:baseUrl` first, then CLOUDPLATFORM_API_KEY /
 * CLOUDPLATFORM_BASE_URL. Missing values are reported by `createClient`, which names both ways.
 */
import { ALLOW_INSECURE_HTTP_CONFIG, ALLOW_INSECURE_HTTP_ENV } from "./api/url";

/** The config namespace of this provider. */
export const CONFIG_NAMESPACE = "cloudplatform";
/** Full config key of the API key (a secret). */
export const API_KEY_CONFIG = `${CONFIG_NAMESPACE}:apiKey`;
/** Full config key of the API base URL. */
export const BASE_URL_CONFIG = `${CONFIG_NAMESPACE}:baseUrl`;
/** Environment fallback of the API key. */
export const API_KEY_ENV = "CLOUDPLATFORM_API_KEY";
/** Environment fallback of the base URL. */
export const BASE_URL_ENV = "CLOUDPLATFORM_BASE_URL";
export { ALLOW_INSECURE_HTTP_CONFIG, ALLOW_INSECURE_HTTP_ENV };
/** Full config key of the limit on requests in flight (checked by createClient). */
export const MAX_CONCURRENT_CONFIG = `${CONFIG_NAMESPACE}:maxConcurrentRequests`;
/** Environment fallback of the limit on requests in flight. */
export const MAX_CONCURRENT_ENV = "CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS";

/** The connection settings; either may be undefined and is then reported by createClient. */
export interface ConnectionSettings {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /**
   * The opt-in to `http://` to a non-loopback host (the key then travels in cleartext), as
   * written (`true`/`false`); createClient checks it, so a typo fails there with a clear error.
   */
  allowInsecureHttp?: string | undefined;
  /** Requests in flight at most, as configured (text); undefined = the client's default (8). */
  maxConcurrentRequests?: string | undefined;
}

/** Picks each setting from config, then the environment. `lookup` reads a full config key. */
export function resolveConnectionSettings(
  lookup: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ConnectionSettings {
  const pick = (configKey: string, envKey: string): string | undefined => {
    const fromConfig = lookup(configKey);
    if (fromConfig !== undefined && fromConfig !== "") return fromConfig;
    const fromEnv = env[envKey];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
  };
  const maxConcurrentRequests = pick(MAX_CONCURRENT_CONFIG, MAX_CONCURRENT_ENV);
  return {
    baseUrl: pick(BASE_URL_CONFIG, BASE_URL_ENV),
    apiKey: pick(API_KEY_CONFIG, API_KEY_ENV),
    allowInsecureHttp: pick(ALLOW_INSECURE_HTTP_CONFIG, ALLOW_INSECURE_HTTP_ENV),
    ...(maxConcurrentRequests !== undefined ? { maxConcurrentRequests } : {}),
  };
}
