/**
 * Running a lookup: validate, build the client, serve from the cache, prefix errors.
 *
 * Why Pulumi-free: the whole behaviour of a lookup (validation before any call, the cache, the
 * request, the error text) is testable against the simulator without a Pulumi engine. The SDK
 * layer only supplies the connection settings (from program config) and the run's cache.
 */
import { createClient, type ClientOptions, type CloudPlatformClient } from "../api/client";
import { CloudPlatformError } from "../api/errors";
import type { RetryPolicy } from "../api/retry";
import type { ConnectionSettings } from "../settings";
import { lookupCacheKey, type LookupCache } from "./cache";

/** What a lookup's `execute` gets. */
export interface LookupCall {
  /** A client for the configured base URL and key (with the lookup's client options). */
  readonly client: CloudPlatformClient;
  /** Run another lookup through the same cache (e.g. getProject reading the project list). */
  sub<A, N, R>(def: LookupDefinition<A, N, R>, args: A): Promise<R>;
}

/** One lookup: its name, argument check, and the work it does. */
export interface LookupDefinition<Args, Normalized, Result> {
  /** Public name (`getRegion`); prefixes every error message and the cache key. */
  readonly name: string;
  /**
   * Internal building blocks (the shared project and region lists) do not prefix errors with
   * their own name; the public lookup that uses them does.
   */
  readonly internal?: boolean;
  /** Check the arguments and apply defaults; throws LookupArgumentError. No I/O. */
  normalize(args: Args | undefined): Normalized;
  /** Client options this call needs (e.g. a longer rate-limit budget). */
  clientOptions?(args: Normalized): ClientOverrides;
  /** Do the requests and shape the result. */
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
}

/**
 * The error with the lookup's name in front of its message, keeping its class and fields. A
 * copy is made because one cached failure may reach several lookups (getProject and getProjects
 * share the project list), and each must name itself.
 */
function prefixError(lookup: string, err: unknown): unknown {
  if (!(err instanceof Error)) return new CloudPlatformError(`${lookup}: ${String(err)}`);
  if (err.message.startsWith(`${lookup}: `)) return err;
  const copy = Object.create(Object.getPrototypeOf(err) as object) as Error;
  for (const key of Object.getOwnPropertyNames(err)) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(err, key) as PropertyDescriptor);
  }
  const message = `${lookup}: ${err.message}`;
  Object.defineProperty(copy, "message", { value: message, writable: true, configurable: true, enumerable: false });
  if (typeof err.stack === "string") {
    Object.defineProperty(copy, "stack", { value: err.stack.replace(err.message, message), writable: true, configurable: true, enumerable: false });
  }
  return copy;
}

/**
 * Run `def` with `args`. Validation errors are thrown before any client or request exists; the
 * result is a fresh copy for every caller, so one caller's mutation cannot leak into another's.
 */
export async function runLookup<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined, env: LookupEnvironment): Promise<R> {
  let normalized: N;
  let client: CloudPlatformClient;
  try {
    normalized = def.normalize(args);
    const own = def.clientOptions?.(normalized) ?? {};
    const base = env.clientOptions ?? {};
    client = createClient({
      ...base,
      ...own,
      retry: { ...base.retry, ...own.retry },
      baseUrl: env.settings.baseUrl as string,
      apiKey: env.settings.apiKey as string,
    });
  } catch (err) {
    throw def.internal ? err : prefixError(def.name, err);
  }
  const key = lookupCacheKey(def.name, normalized, client.baseUrl, env.settings.apiKey ?? "");
  const call: LookupCall = { client, sub: (d, a) => runLookup(d, a, env) };
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
 * A copy of plain data (objects, arrays, primitives) built in this realm. Not
 * `structuredClone`: under a VM context (jest) it builds arrays of another realm, which
 * `pulumi.output` then fails to recognise as arrays.
 */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => deepCopy(v)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = deepCopy(v);
    return out as T;
  }
  return value;
}
