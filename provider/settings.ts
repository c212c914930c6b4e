/**
 * Why one module: the dynamic provider (`configure()`), the plugin (`Configure`) and the SDK's
 * lookups (the running program's config) must pick each setting by the same rule (stack config
 * first, then the environment variable) and build their client the same way. The config keys
 * and variables are named here only: {@link SETTING_SOURCES} tells the API client how a Pulumi
 * user sets each option, so its messages (a missing key, a 401, a bad limit) name both.
 */
import { createClient, type ClientOptions, type CloudPlatformClient, type OptionSources } from "./api";

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
/** Full config key of the opt-in to plain HTTP to other hosts. */
export const ALLOW_INSECURE_HTTP_CONFIG = `${CONFIG_NAMESPACE}:allowInsecureHttp`;
/** Environment fallback of {@link ALLOW_INSECURE_HTTP_CONFIG}. */
export const ALLOW_INSECURE_HTTP_ENV = "CLOUDPLATFORM_ALLOW_INSECURE_HTTP";
/** Full config key of the limit on requests in flight. */
export const MAX_CONCURRENT_CONFIG = `${CONFIG_NAMESPACE}:maxConcurrentRequests`;
/** Environment fallback of the limit on requests in flight. */
export const MAX_CONCURRENT_ENV = "CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS";
/** Full config key of where the WAAP reseller endpoints are (`auto`, `public` or `spec`). */
export const RESELLER_PATHS_CONFIG = `${CONFIG_NAMESPACE}:resellerPaths`;
/** Environment fallback of {@link RESELLER_PATHS_CONFIG}. */
export const RESELLER_PATHS_ENV = "CLOUDPLATFORM_RESELLER_PATHS";

/** Where a Pulumi user sets each client option, as the client's messages name it. */
export const SETTING_SOURCES: OptionSources = Object.freeze({
  apiKey: `the Pulumi config \`${API_KEY_CONFIG}\` (as a secret: pulumi config set --secret ${API_KEY_CONFIG} ...) or the environment variable ${API_KEY_ENV}`,
  baseUrl: `the Pulumi config \`${BASE_URL_CONFIG}\` or the environment variable ${BASE_URL_ENV}`,
  allowInsecureHttp: `the Pulumi config ${ALLOW_INSECURE_HTTP_CONFIG} (or the environment variable ${ALLOW_INSECURE_HTTP_ENV})`,
  maxConcurrentRequests: `the Pulumi config \`${MAX_CONCURRENT_CONFIG}\` or the environment variable ${MAX_CONCURRENT_ENV}`,
  resellerPaths: `the Pulumi config \`${RESELLER_PATHS_CONFIG}\` or the environment variable ${RESELLER_PATHS_ENV}`,
});

/** The connection settings; either may be undefined and is then reported by createClient. */
export interface ConnectionSettings {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  /** Opt-in to `http://` to a non-loopback host, as written: createClient rejects a typo clearly. */
  allowInsecureHttp?: string | undefined;
  /** Requests in flight at most, as configured (text); undefined = the client's default (8). */
  maxConcurrentRequests?: string | undefined;
  /** Where the WAAP reseller endpoints are (`spec`, `public`), as configured; undefined = `spec`. */
  resellerPaths?: string | undefined;
  /** So a refused key's message says which one was used. */
  apiKeyFrom?: "config" | "environment" | undefined;
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
  const resellerPaths = pick(RESELLER_PATHS_CONFIG, RESELLER_PATHS_ENV);
  const apiKey = pick(API_KEY_CONFIG, API_KEY_ENV);
  const keyInConfig = lookup(API_KEY_CONFIG);
  return {
    baseUrl: pick(BASE_URL_CONFIG, BASE_URL_ENV),
    apiKey,
    ...(apiKey !== undefined ? { apiKeyFrom: keyInConfig !== undefined && keyInConfig !== "" ? ("config" as const) : ("environment" as const) } : {}),
    allowInsecureHttp: pick(ALLOW_INSECURE_HTTP_CONFIG, ALLOW_INSECURE_HTTP_ENV),
    ...(maxConcurrentRequests !== undefined ? { maxConcurrentRequests } : {}),
    ...(resellerPaths !== undefined ? { resellerPaths } : {}),
  };
}

/** Client options a caller may add to the settings (logging, retry overrides, tests). */
export type ClientExtras = Omit<ClientOptions, "baseUrl" | "apiKey" | "allowInsecureHttp" | "maxConcurrentRequests" | "resellerPaths" | "optionSources">;

/** Throws ConfigurationError, naming the config key and the variable, for a missing or malformed setting. */
export function clientFromSettings(settings: ConnectionSettings, extras: ClientExtras = {}): CloudPlatformClient {
  return createClient({
    ...extras,
    baseUrl: settings.baseUrl ?? "",
    apiKey: settings.apiKey ?? "",
    allowInsecureHttp: settings.allowInsecureHttp,
    maxConcurrentRequests: settings.maxConcurrentRequests,
    resellerPaths: settings.resellerPaths,
    optionSources: SETTING_SOURCES,
  });
}
