/**
 * Running a lookup: validate, build the client, serve from the cache, name the lookup in errors.
 * Pulumi-free, so a lookup's whole behaviour is testable against the simulator without an engine.
 */
import type { ClientOptions, CloudPlatformClient, RetryEvent } from "../api/client";
import { CloudPlatformError } from "../api/errors";
import type { RetryPolicy } from "../api/retry";
import { reworded } from "../caughtErrors";
import { clientFromSettings, type ConnectionSettings } from "../settings";
import { lookupCacheKey, type LookupCache } from "./cache";
import { LookupArgumentError } from "./errors";
import { retryLine } from "./progress";
import { PENDING_ARGUMENT } from "./validate";

/** What a lookup's `execute` gets. */
export interface LookupCall {
  readonly client: CloudPlatformClient;
  /** Another lookup through the same cache (e.g. getProject reading the project list). */
  sub<A, N, R>(def: LookupDefinition<A, N, R>, args: A): Promise<R>;
  progress(message: string): void;
}

/** One lookup: its name, argument check, and the work it does. */
export interface LookupDefinition<Args, Normalized, Result> {
  /** Public name (`getRegion`); prefixes every error message and the cache key. */
  readonly name: string;
  /** A building block (the shared project list) whose errors the public lookup using it names. */
  readonly internal?: boolean;
  /** Checks the arguments and applies defaults; throws LookupArgumentError. No I/O. */
  normalize(args: Args | undefined): Normalized;
  /** E.g. a longer rate-limit budget. */
  clientOptions?(args: Normalized): ClientOverrides;
  execute(call: LookupCall, args: Normalized): Promise<Result>;
}

/** Client options a caller may add; the base URL and key always come from the settings. */
export type ClientOverrides = Partial<Omit<ClientOptions, "baseUrl" | "apiKey" | "retry">> & {
  readonly retry?: Partial<RetryPolicy> | undefined;
};

/** Where a lookup runs: connection settings, the run's cache, and client extras (logging, tests). */
export interface LookupEnvironment {
  readonly settings: ConnectionSettings;
  readonly cache: LookupCache;
  readonly clientOptions?: ClientOverrides | undefined;
  /** Pages and retry waits of long lookups, which would otherwise look like a hang. */
  readonly progress?: ((message: string) => void) | undefined;
  /** The plugin's `Cancel`, Ctrl-C; a stopped lookup fails with RequestAbortedError. */
  readonly signal?: AbortSignal | undefined;
}

/** A copy, since one cached failure may reach several lookups, each naming itself. */
function prefixError(lookup: string, err: unknown): unknown {
  if (!(err instanceof Error)) return new CloudPlatformError(`${lookup}: ${String(err)}`);
  return err.message.startsWith(`${lookup}: `) ? err : reworded(err, `${lookup}: ${err.message}`);
}

/** For callers that send the lookup elsewhere (the engine's invoke) but must refuse a bad argument first. */
export function normalizeLookupArgs<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined): N {
  try {
    return def.normalize(args);
  } catch (err) {
    throw def.internal ? err : prefixError(def.name, err);
  }
}

/** The environment's client options, then the lookup's own. */
function clientFor(env: LookupEnvironment, own: ClientOverrides): CloudPlatformClient {
  const extras = { ...env.clientOptions, ...own };
  const onRetry = (e: RetryEvent): void => {
    extras.onRetry?.(e);
    env.progress?.(retryLine(e));
  };
  return clientFromSettings(env.settings, { ...extras, onRetry, retry: { ...env.clientOptions?.retry, ...own.retry } }).withSignal(env.signal);
}

/** Validates before any request; each caller gets a fresh copy, so mutations cannot leak. */
export async function runLookup<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined, env: LookupEnvironment): Promise<R> {
  let normalized: N;
  let client: CloudPlatformClient;
  try {
    normalized = def.normalize(args);
    client = clientFor(env, def.clientOptions?.(normalized) ?? {});
  } catch (err) {
    throw def.internal ? err : prefixError(def.name, err);
  }
  const key = lookupCacheKey(def.name, normalized, client.baseUrl, env.settings.apiKey ?? "");
  const call: LookupCall = { client, sub: (d, a) => runLookup(d, a, env), progress: (message) => env.progress?.(message) };
  const shared = env.cache.get(key, async () => {
    try {
      return await def.execute(call, normalized);
    } catch (err) {
      throw def.internal ? err : prefixError(def.name, err);
    }
  });
  return deepCopy(await shared);
}

/**
 * Checks the arguments already known before pending ones arrive: inside `apply` the Pulumi SDK
 * takes tens of seconds to fail a program on a thrown error, the Promise form about two.
 */
export function precheckLookup<A, N, R>(def: LookupDefinition<A, N, R>, args: unknown, isPending: (value: unknown) => boolean): void {
  if (args === undefined || args === null || isPending(args)) return;
  let known: unknown = args;
  if (typeof args === "object" && !Array.isArray(args)) {
    known = Object.fromEntries(
      Object.entries(args as Record<string, unknown>).map(([k, v]) => [k, holdsPending(v, isPending) ? PENDING_ARGUMENT : v]),
    );
  }
  try {
    def.normalize(known as A);
  } catch (err) {
    // Anything else may have needed a pending value: left to the full check.
    if (err instanceof LookupArgumentError) throw def.internal ? err : prefixError(def.name, err);
  }
}

function holdsPending(value: unknown, isPending: (value: unknown) => boolean): boolean {
  if (isPending(value)) return true;
  if (Array.isArray(value)) return value.some((v) => holdsPending(v, isPending));
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).some((v) => holdsPending(v, isPending));
  }
  return false;
}

/** Not `structuredClone`: under jest's VM context it builds arrays `pulumi.output` does not recognise. */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => deepCopy(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = deepCopy(v);
    return out as T;
  }
  return value;
}
