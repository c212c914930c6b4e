/**
 * Running a lookup: validate, build the client, serve from the cache, name the lookup in errors.
 *
 * Why Pulumi-free: the whole behaviour of a lookup (validation before any call, the cache, the
 * request, the error text, the progress lines) is testable against the simulator without a
 * Pulumi engine. The callers supply the connection settings, the run's cache and where progress
 * goes: the TypeScript SDK from the program's config, the plugin from its `Configure`.
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
  /** A client for the configured base URL and key (with the lookup's client options). */
  readonly client: CloudPlatformClient;
  /** Run another lookup through the same cache (e.g. getProject reading the project list). */
  sub<A, N, R>(def: LookupDefinition<A, N, R>, args: A): Promise<R>;
  /** Reports progress of a long lookup (pages of a large list); dropped unless the environment asks for it. */
  progress(message: string): void;
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
  /**
   * Where progress of long lookups goes (one line per page of a list that takes more than one
   * page, one before each retry wait); absent = no progress. Why: a listing of 10,000 instances
   * takes ten requests, a rate limit can hold a lookup for a minute, and a silent pause that long
   * looks like a hang.
   */
  readonly progress?: ((message: string) => void) | undefined;
  /**
   * Ends the lookup's requests and retry waits (the plugin's `Cancel`, Ctrl-C); absent = never.
   * A lookup it stopped fails with RequestAbortedError.
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The error with the lookup's name in front of its message. A copy, since one cached failure may
 * reach several lookups (getProject and getProjects share the project list), and each must name
 * itself.
 */
function prefixError(lookup: string, err: unknown): unknown {
  if (!(err instanceof Error)) return new CloudPlatformError(`${lookup}: ${String(err)}`);
  return err.message.startsWith(`${lookup}: `) ? err : reworded(err, `${lookup}: ${err.message}`);
}

/**
 * The arguments of `def` checked and with their defaults, or the LookupArgumentError that
 * {@link runLookup} would throw for them (named after the lookup). No client, no request: for
 * callers that send the lookup elsewhere (the engine's invoke) but must refuse a bad argument
 * first, exactly as here.
 */
export function normalizeLookupArgs<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined): N {
  try {
    return def.normalize(args);
  } catch (err) {
    throw def.internal ? err : prefixError(def.name, err);
  }
}

/** The client of one lookup: the environment's options, then the lookup's own; each retry wait also goes to `progress`. */
function clientFor(env: LookupEnvironment, own: ClientOverrides): CloudPlatformClient {
  const extras = { ...env.clientOptions, ...own };
  const onRetry = (e: RetryEvent): void => {
    extras.onRetry?.(e);
    env.progress?.(retryLine(e));
  };
  return clientFromSettings(env.settings, { ...extras, onRetry, retry: { ...env.clientOptions?.retry, ...own.retry } }).withSignal(env.signal);
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
 * Check, synchronously, every argument of a call whose value is known at the call, before any
 * of its pending values (Outputs, Promises: `isPending`) arrive; throws the LookupArgumentError
 * that {@link runLookup} would throw for the same arguments. An argument holding a pending value
 * anywhere (a list with one Output in it) is checked in full by `runLookup` once it is known;
 * unknown argument names are refused at once whatever their value.
 *
 * Why: inside `apply` the Pulumi SDK takes tens of seconds to fail a program on a thrown error,
 * while the Promise form fails in about two seconds; a mistake visible in the source
 * (`pageSize: 5000`, a misspelt argument) fails both forms at once, with the same message.
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
    // Only an argument error is the caller's; anything else (a check that needed a pending
    // value after all) is left to the full check when the values are known.
    if (err instanceof LookupArgumentError) throw def.internal ? err : prefixError(def.name, err);
  }
}

/** Whether `value` is pending or holds a pending value in a list or plain object. */
function holdsPending(value: unknown, isPending: (value: unknown) => boolean): boolean {
  if (isPending(value)) return true;
  if (Array.isArray(value)) return value.some((v) => holdsPending(v, isPending));
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).some((v) => holdsPending(v, isPending));
  }
  return false;
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
