/**
 * The plugin's own configuration: `CheckConfig`, `DiffConfig` and `Configure`.
 *
 * Why apart from the service: these calls concern the provider's settings (the API key, base
 * URL and the two parsed ones), not a resource or a lookup. What one `Configure` sets up, a
 * {@link Configuration}, is replaced as a whole, so a run never mixes two configurations.
 */
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provProto from "@pulumi/pulumi/proto/provider_pb";
import type { CloudPlatformClient } from "../api";
import { messageOf } from "../caughtErrors";
import { parseMaxConcurrentRequests } from "../api/pacing";
import { parseAllowInsecureHttp } from "../api/url";
import { parseResellerPaths } from "../api/waap/reseller";
import { LookupCache } from "../lookups";
import { RunState, type RunOptions } from "../resources/runState";
import { clientFromSettings, CONFIG_NAMESPACE, resolveConnectionSettings, SETTING_SOURCES, type ConnectionSettings } from "../settings";
import { fromStruct, toStruct, type PlainProperties } from "./values";

/**
 * The provider's settings, as the engine names them in `Configure` args: the connection
 * strings, the two whose values are parsed, and `resellerPaths` (not in the schema's config, which
 * keeps it to the stack config, but sent by the TypeScript package's `Provider`).
 */
const STRING_SETTINGS = ["apiKey", "baseUrl"] as const;
const SETTINGS = [...STRING_SETTINGS, "allowInsecureHttp", "maxConcurrentRequests", "resellerPaths"] as const;

/** Everything one `Configure` sets up: settings, client, run facts and lookup cache. */
export interface Configuration {
  readonly settings: ConnectionSettings;
  readonly run: RunState;
  readonly cache: LookupCache;
  /**
   * Which key a read or delete uses: `current` when the engine checked the program's config
   * (`CheckConfig`) before this `Configure`, as it does whenever the program runs; `saved` when
   * it configured the provider from the state alone (`pulumi refresh`, `pulumi destroy` and the
   * refresh of `pulumi preview --refresh` without `--run-program`).
   */
  readonly keyUse: "saved" | "current";
  client?: CloudPlatformClient;
}

/** A fresh configuration from config `lookup` (a full config key) and the environment. */
export function newConfiguration(
  lookup: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv,
  runOptions: RunOptions | undefined,
  keyUse: Configuration["keyUse"] = "current",
): Configuration {
  return { settings: resolveConnectionSettings(lookup, env), run: new RunState(runOptions), cache: new LookupCache(), keyUse };
}

/** The configuration's client, made on first use. */
export function clientOf(config: Configuration): CloudPlatformClient {
  return (config.client ??= clientFromSettings(config.settings));
}

/** Why a setting's value cannot be used, in the words its parser uses; undefined when it can. */
function settingProblem(key: (typeof SETTINGS)[number], value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if ((STRING_SETTINGS as readonly string[]).includes(key) || key === "resellerPaths") {
    if (typeof value !== "string") return `${CONFIG_NAMESPACE}:${key} must be a string, got ${typeof value}`;
    if (key !== "resellerPaths") return undefined;
  }
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    return `${CONFIG_NAMESPACE}:${key} must be a ${key === "allowInsecureHttp" ? "boolean" : "number"}, got ${typeof value}`;
  }
  try {
    if (key === "allowInsecureHttp") parseAllowInsecureHttp(typeof value === "number" ? String(value) : value, SETTING_SOURCES);
    else if (key === "resellerPaths") parseResellerPaths(String(value), SETTING_SOURCES);
    else parseMaxConcurrentRequests(typeof value === "boolean" ? String(value) : value, SETTING_SOURCES);
    return undefined;
  } catch (err) {
    return messageOf(err);
  }
}

function union(...sets: ReadonlySet<string>[]): Set<string> {
  return new Set(sets.flatMap((s) => [...s]));
}

/**
 * Checks the provider config before anything runs, each failure naming the setting and what it
 * allows. The key goes back marked secret even when set in plain text, so the engine never
 * stores it plainly.
 */
export function checkConfig(news: PlainProperties, redact: (text: string) => string): provProto.CheckResponse {
  const failures: provProto.CheckFailure[] = [];
  for (const key of SETTINGS) {
    const problem = settingProblem(key, news.values[key]);
    if (problem) failures.push(new provProto.CheckFailure().setProperty(key).setReason(redact(problem)));
  }
  const res = new provProto.CheckResponse().setInputs(toStruct(news.values, union(news.secretKeys, new Set(["apiKey"]))));
  return res.setFailuresList(failures);
}

/** A changed setting changes the provider in place; resources are never replaced for it. */
export function diffConfig(olds: Record<string, unknown>, news: Record<string, unknown>): provProto.DiffResponse {
  const changed = SETTINGS.filter((k) => String(olds[k]) !== String(news[k]));
  const res = new provProto.DiffResponse().setDiffsList(changed);
  return res.setChanges(changed.length > 0 ? provProto.DiffResponse.DiffChanges.DIFF_SOME : provProto.DiffResponse.DiffChanges.DIFF_NONE);
}

/**
 * The config of a `Configure` as a lookup of full config keys: its args, or the older string
 * variables `cloudplatform:config:<key>`.
 */
export function configuredValues(req: provProto.ConfigureRequest): (fullKey: string) => string | undefined {
  const args = fromStruct(req.getArgs() as Struct | undefined).values;
  const variables = req.getVariablesMap();
  return (fullKey) => {
    const key = fullKey.slice(CONFIG_NAMESPACE.length + 1);
    const fromArgs = args[key];
    if (typeof fromArgs === "string" || typeof fromArgs === "boolean" || typeof fromArgs === "number") return String(fromArgs);
    return variables.get(`${CONFIG_NAMESPACE}:config:${key}`) ?? undefined;
  };
}

/** What the plugin accepts, told in answer to `Configure`. */
export function configureResponse(): provProto.ConfigureResponse {
  const res = new provProto.ConfigureResponse();
  res.setAcceptsecrets(true);
  res.setSupportspreview(true);
  res.setAcceptresources(false);
  res.setAcceptoutputs(false);
  return res;
}
