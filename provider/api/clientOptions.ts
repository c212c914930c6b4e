/** The options of `createClient`, checked at creation so a bad setting fails before any request. */
import { ConfigurationError } from "./errors";
import { sourceOf, type OptionSources } from "./optionNames";
import { parseMaxConcurrentRequests, RequestPacer, sharedPacer } from "./pacing";
import { redactDeep } from "./redact";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./responseBody";
import { resolveRetryPolicy, type RetryPolicy } from "./retry";
import { sleep as defaultSleep } from "./sleep";
import { checkBaseUrl } from "./url";
import { DEFAULT_USER_AGENT } from "./version";

/** Default per-attempt timeout: long enough for slow list calls, short enough to retry a hung GET. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Where log lines go; every line is already redacted. Pulumi's `log` fits this shape. */
export interface ClientLogger {
  debug?(line: string): void;
  warn?(line: string): void;
}

/** Reported before each retry wait, so callers can surface "rate limited, waiting 5 s". */
export interface RetryEvent {
  readonly method: string;
  readonly path: string;
  /** The attempt that just failed (1-based), as `maxAttempts` counts them. */
  readonly attempt: number;
  /** False for a 429 whose Retry-After paces us: the retry keeps this attempt's number. */
  readonly usedAnAttempt: boolean;
  readonly delayMs: number;
  /** E.g. `status 429` or `ECONNREFUSED: ...`. */
  readonly reason: string;
  readonly status?: number | undefined;
  readonly code?: string | undefined;
}

/** Options of `createClient`. */
export interface ClientOptions {
  /** API base URL, e.g. `http://127.0.0.1:8080`. Required: there is no default host. */
  readonly baseUrl: string;
  /** API token, sent as `Authorization: apikey <token>`; never logged or put in messages. */
  readonly apiKey: string;
  /** Per attempt, in ms (default {@link DEFAULT_TIMEOUT_MS}). */
  readonly timeoutMs?: number | undefined;
  /** Overrides of `DEFAULT_RETRY_POLICY`. */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Default `pulumi-cloudplatform/<version>`. */
  readonly userAgent?: string | undefined;
  readonly logger?: ClientLogger | undefined;
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
  /** For tests; a client given `sleep` or `now` gets a pacer of its own on that clock. */
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  readonly now?: (() => number) | undefined;
  readonly random?: (() => number) | undefined;
  /** Default 64 MiB; a larger answer fails with ResponseTooLargeError without buffering the rest. */
  readonly maxResponseBytes?: number | undefined;
  /** Allow `http://` to a host other than loopback (the key then travels in cleartext). */
  readonly allowInsecureHttp?: boolean | string | undefined;
  /** Per API host, shared by every client of the process (default 8, 1..256; the smallest wins). */
  readonly maxConcurrentRequests?: number | string | undefined;
  /**
   * `auto` (default): the public OpenAPI's `/waap/v1/prebilling/...` and `/waap/ping`, and the API
   * reference's `/waap/reseller/...` where the platform answers 404 there (learned once per base
   * URL); `public` or `spec` pins one set (see `ResellerPaths`).
   */
  readonly resellerPaths?: "auto" | "public" | "spec" | string | undefined;
  /** Where the user sets each option, as errors name it (the provider passes config keys and variables). */
  readonly optionSources?: OptionSources | undefined;
}

/** What the HTTP part needs: the only part given the raw key. */
export interface HttpOptions {
  /** The normalized base URL (no trailing slash). */
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
  readonly now: () => number;
  readonly logger: ClientLogger | undefined;
}

/** What the response mapping needs besides the answer. */
export interface MappingOptions {
  /** The success-body cap the body was read with, named when it is exceeded. */
  readonly maxResponseBytes: number;
  /** Where the user sets the API key (a 401's hint) and the base URL (a redirect's hint). */
  readonly apiKeySource: string;
  readonly baseUrlSource: string;
}

/** What the retry loop needs: the policy, its clock, the pacer and whom to tell. */
export interface RetryLoopOptions {
  readonly policy: RetryPolicy;
  readonly pacer: RequestPacer;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
  readonly random: () => number;
  readonly logger: ClientLogger | undefined;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
}

/** The checked options, with every default applied, as the transport's parts take them. */
export interface TransportOptions {
  readonly http: HttpOptions;
  readonly mapping: MappingOptions;
  readonly loop: RetryLoopOptions;
  /** Removes the key from a text or from every string of a value: applied where text enters the transport. */
  readonly scrub: <T>(value: T) => T;
}

/** Checks `options` and applies the defaults; throws ConfigurationError naming the option at fault. */
export function resolveClientOptions(options: ClientOptions): TransportOptions {
  const sources = options.optionSources;
  const baseUrl = checkBaseUrl(options.baseUrl, { allowInsecureHttp: options.allowInsecureHttp, sources });
  const apiKey = checkApiKey(options.apiKey, sources);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new ConfigurationError(`maxResponseBytes must be a positive integer, got ${maxResponseBytes}`);
  }
  const policy = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new ConfigurationError(`timeoutMs must be > 0, got ${timeoutMs}`);
  const now = options.now ?? Date.now;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  return {
    http: { baseUrl, apiKey, timeoutMs, maxResponseBytes, userAgent, now, logger: options.logger },
    mapping: { maxResponseBytes, apiKeySource: sourceOf("apiKey", sources), baseUrlSource: sourceOf("baseUrl", sources) },
    loop: {
      policy,
      pacer: pacerFor(baseUrl, options, sources),
      sleep: options.sleep ?? defaultSleep,
      now,
      random: options.random ?? Math.random,
      logger: options.logger,
      onRetry: options.onRetry,
    },
    scrub: <T>(value: T) => redactDeep(value, [apiKey]) as T,
  };
}

/** The host's shared pacer, unless the client runs on an injected clock (a pause is a time on one clock). */
function pacerFor(baseUrl: string, options: ClientOptions, sources: OptionSources | undefined): RequestPacer {
  if (options.now === undefined && options.sleep === undefined) return sharedPacer(baseUrl, options.maxConcurrentRequests, sources);
  const maxConcurrent = parseMaxConcurrentRequests(options.maxConcurrentRequests, sources);
  return new RequestPacer({ maxConcurrent, now: options.now, sleep: options.sleep });
}

function checkApiKey(value: string | undefined, sources: OptionSources | undefined): string {
  const how = `set ${sourceOf("apiKey", sources)}`;
  if (typeof value !== "string" || value.trim() === "") {
    throw new ConfigurationError(`No API key is configured: ${how}.`);
  }
  if (/[\s\u0000-\u001f\u007f]/.test(value.trim()) || value.trim() !== value) {
    throw new ConfigurationError(`The API key contains whitespace or control characters (it is not printed): ${how}.`);
  }
  return value;
}
