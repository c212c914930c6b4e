/**
 * The HTTP transport and `createClient`, the only module that imports axios.
 *
 * Why one transport: auth, user agent, timeouts, the retry policy, error mapping and key
 * redaction are each decided once, here, so no product module can forget one of them.
 */
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import { cloudApi, type CloudApi } from "./cloud";
import { dnsApi, type DnsApi } from "./dns/analyze";
import {
  CloudPlatformError,
  ConfigurationError,
  ConnectionError,
  makeApiError,
  RequestAbortedError,
} from "./errors";
import { iamApi, type IamApi } from "./iam/clients";
import { redact, redactDeep } from "./redact";
import {
  budgetStop,
  classifyFailure,
  resolveRetryPolicy,
  isPacingDelay,
  retryDelayMs,
  parseRetryAfter,
  type AttemptFailure,
  type HeaderLookup,
  type RetryPolicy,
} from "./retry";
import { familyOf, sharedPacer } from "./pacing";
import { parseServerError, productOf } from "./serverErrors";
import { sleep as defaultSleep } from "./sleep";
import { storageApi, type StorageApi } from "./storage/notifications";
import { streamingApi, type StreamingApi } from "./streaming/aiTasks";
import type { ApiResponse, RequestSpec, Transport } from "./transport";
import { serializeQuery } from "./url";
import { DEFAULT_USER_AGENT } from "./version";
import { waapApi, type WaapApi } from "./waap/reseller";

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
  /** The attempt that just failed (1-based). */
  readonly attempt: number;
  /** How long the client waits before the next attempt, in ms. */
  readonly delayMs: number;
  /** Why it is retried, e.g. `status 429` or `ECONNREFUSED: ...`. */
  readonly reason: string;
  /** HTTP status of the failed attempt, if any. */
  readonly status?: number | undefined;
  /** Network error code of the failed attempt, if any. */
  readonly code?: string | undefined;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** API base URL, e.g. `http://127.0.0.1:8080`. Required: there is no default host. */
  readonly baseUrl: string;
  /** API token, sent as `Authorization: apikey <token>`; never logged or put in messages. */
  readonly apiKey: string;
  /** Per-attempt timeout in ms (default {@link DEFAULT_TIMEOUT_MS}). */
  readonly timeoutMs?: number | undefined;
  /** Overrides of the retry policy; see `DEFAULT_RETRY_POLICY`. */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Replaces the `User-Agent` (default `pulumi-cloudplatform/<version>`). */
  readonly userAgent?: string | undefined;
  /** Receives redacted request and retry log lines. */
  readonly logger?: ClientLogger | undefined;
  /** Called before each retry wait. */
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Sleep used between retries (tests inject one to observe waits); resolves early on abort. */
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Clock for the retry budget and HTTP-date Retry-After (tests). */
  readonly now?: (() => number) | undefined;
  /** Random source for jitter (tests). */
  readonly random?: (() => number) | undefined;
  /**
   * Requests in flight to this base URL at most, shared by every client of the process (default
   * 8; an integer 1..256, a string from config is parsed). See pacing.ts.
   */
  readonly maxConcurrentRequests?: number | string | undefined;
}

/** The API client, grouped by product as the API is. */
export interface CloudPlatformClient {
  /** The normalized base URL (no trailing slash). */
  readonly baseUrl: string;
  readonly cloud: CloudApi;
  readonly storage: StorageApi;
  readonly dns: DnsApi;
  readonly waap: WaapApi;
  readonly streaming: StreamingApi;
  readonly iam: IamApi;
}

/**
 * Create an API client. Throws ConfigurationError when the base URL or key is missing or
 * malformed, naming the config key and the environment variable that set it.
 */
export function createClient(options: ClientOptions): CloudPlatformClient {
  const transport = createTransport(options);
  return Object.freeze({
    baseUrl: transport.baseUrl,
    cloud: cloudApi(transport),
    storage: storageApi(transport),
    dns: dnsApi(transport),
    waap: waapApi(transport),
    streaming: streamingApi(transport),
    iam: iamApi(transport),
  });
}

/** Internal: an attempt failed; builds the public error once the attempt count is known. */
class AttemptFailed extends Error {
  constructor(
    readonly make: (attempts: number, note: string | undefined) => CloudPlatformError,
    readonly failure: AttemptFailure,
    readonly retryAfterMs: number | undefined,
  ) {
    super(failure.kind);
  }
}

/**
 * Build the transport: one axios instance, the auth header added per request (never stored
 * where an inspected object could show it), and the retry loop of {@link request}: a plain loop,
 * so the waits use the injected sleep and clock, honour Retry-After and stop at once on abort.
 */
export function createTransport(options: ClientOptions): Transport & { readonly baseUrl: string } {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const apiKey = checkApiKey(options.apiKey);
  const policy = resolveRetryPolicy(options.retry);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new ConfigurationError(`timeoutMs must be > 0, got ${timeoutMs}`);
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const logger = options.logger;
  const scrub = (text: string): string => redact(text, [apiKey]);
  const origin = new URL(baseUrl);
  const target = origin.host;
  const pacer = sharedPacer(baseUrl, options.maxConcurrentRequests);
  /** How long a failed attempt holds its family: a 429's Retry-After. */
  const familyPause = (err: unknown): number | undefined =>
    err instanceof AttemptFailed && err.failure.kind === "status" && err.failure.status === 429 ? err.retryAfterMs : undefined;

  const http: AxiosInstance = axios.create({
    baseURL: baseUrl,
    timeout: timeoutMs,
    maxRedirects: 0,
    allowAbsoluteUrls: false,
    adapter: "http",
    // A proxy cannot reach this machine's loopback; elsewhere the usual proxy variables apply.
    ...(isLoopback(origin.hostname) ? { proxy: false as const } : {}),
    responseType: "text",
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
  });

  async function attemptOnce(spec: RequestSpec): Promise<ApiResponse> {
    const started = now();
    // The path as errors, logs and responses show it (a key could be a path parameter).
    const path = scrub(spec.path);
    let res: AxiosResponse<unknown>;
    try {
      res = await http.request({
        method: spec.method,
        url: spec.path + serializeQuery(spec.query),
        headers: {
          Authorization: `apikey ${apiKey}`,
          "User-Agent": userAgent,
          Accept: "application/json",
          ...(spec.body !== undefined ? { "Content-Type": "application/json" } : {}),
        },
        data: spec.body !== undefined ? JSON.stringify(spec.body) : undefined,
        timeout: spec.options?.timeoutMs ?? timeoutMs,
        signal: spec.options?.signal,
      });
    } catch (err) {
      throw networkFailure(spec, err);
    }
    const header: HeaderLookup = (name) => headerValue(res.headers, name);
    const data = parseBody(res.data);
    logger?.debug?.(scrub(`${spec.method} ${path} -> ${res.status} (${Math.round(now() - started)} ms)`));
    if (res.status >= 200 && res.status < 300) {
      return { method: spec.method, path, status: res.status, data, header };
    }
    const parsed = parseServerError(productOf(spec.path), data);
    const retryAfterMs = parseRetryAfter(header, now());
    const init = {
      method: spec.method,
      path,
      status: res.status,
      serverMessage: scrub(parsed.message),
      exceptionClass: parsed.exceptionClass,
      requestId: parsed.requestId ?? header("x-request-id"),
      errors: parsed.errors.map((e) => ({ loc: e.loc.map(scrub), detail: scrub(e.detail) })),
      body: redactDeep(data, [apiKey]),
      retryAfterMs,
      redact: scrub,
    };
    throw new AttemptFailed(
      (attempts, note) => makeApiError({ ...init, attempts, note }),
      { kind: "status", status: res.status },
      retryAfterMs,
    );
  }

  function networkFailure(spec: RequestSpec, err: unknown): AttemptFailed {
    const path = scrub(spec.path);
    if (spec.options?.signal?.aborted || axios.isCancel(err)) {
      return new AttemptFailed(() => new RequestAbortedError(spec.method, path), { kind: "aborted" }, undefined);
    }
    const code = errorCode(err);
    const detail = scrub(err instanceof Error ? err.message || code : String(err));
    const init = {
      method: spec.method,
      path,
      target,
      code,
      detail,
      mayHaveReachedServer: !policy.neverSentCodes.includes(code),
      timedOut: code === "ETIMEDOUT" || code === "ECONNABORTED",
    };
    return new AttemptFailed((attempts, note) => new ConnectionError({ ...init, attempts, note }), { kind: "network", code }, undefined);
  }

  /**
   * The retry policy, top to bottom. Send; a failure the policy does not retry (retry.ts
   * `classifyFailure`: never a write that may have reached the server) is thrown at once.
   * Otherwise wait the server's Retry-After, or a jittered backoff, and send again, until the
   * attempts or the time budget run out. A 429 whose Retry-After asks for a real wait is the
   * server pacing us, not a failure: it uses up no attempt, so for it the time budget is the
   * only bound (a `Retry-After: 0` counts as an attempt: see `isPacingDelay`).
   */
  async function request(spec: RequestSpec): Promise<ApiResponse> {
    const started = now();
    const signal = spec.options?.signal;
    const path = scrub(spec.path);
    let counted = 0;
    let pauseWaited = false;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new RequestAbortedError(spec.method, path);
      let failed: AttemptFailed;
      try {
        return await pacer.send(familyOf(spec.path), () => attemptOnce(spec), familyPause, { signal, pauseWaited });
      } catch (err) {
        failed = asAttemptFailed(err);
      }
      const decision = classifyFailure(spec.method, failed.failure, policy);
      if (!decision.retry) throw failed.make(attempt, undefined);
      const paced = failed.failure.kind === "status" && failed.failure.status === 429 && isPacingDelay(failed.retryAfterMs, policy);
      if (!paced) counted += 1;
      const delayMs = retryDelayMs(Math.max(1, counted), policy, failed.retryAfterMs, random);
      const stop = budgetStop(policy, counted, now() - started, delayMs, failed.retryAfterMs);
      if (stop) throw failed.make(attempt, stop);
      const status = failed.failure.kind === "status" ? failed.failure.status : undefined;
      const code = failed.failure.kind === "network" ? failed.failure.code : undefined;
      logger?.warn?.(scrub(`${spec.method} ${path} attempt ${attempt} failed (${decision.reason}); retrying in ${delayMs} ms`));
      options.onRetry?.({ method: spec.method, path, attempt, delayMs, reason: scrub(decision.reason), status, code });
      await sleep(delayMs, signal);
      pauseWaited = status === 429 && failed.retryAfterMs !== undefined;
    }
  }

  /** A failed attempt as the loop sees it; an unexpected throw (a bug) is surfaced redacted, never retried. */
  function asAttemptFailed(err: unknown): AttemptFailed {
    if (err instanceof AttemptFailed) return err;
    const error = err instanceof CloudPlatformError ? err : new CloudPlatformError(scrub(String(err instanceof Error ? err.message : err)));
    return new AttemptFailed(() => error, { kind: "aborted" }, undefined);
  }

  return { baseUrl, request };
}

function checkBaseUrl(value: string | undefined): string {
  const how = "set the Pulumi config `cloudplatform:baseUrl` or the environment variable CLOUDPLATFORM_BASE_URL";
  if (typeof value !== "string" || value.trim() === "") {
    throw new ConfigurationError(`No API base URL is configured (there is no default host): ${how}.`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    // Not echoed: a value that is no URL may be a key pasted into the wrong setting.
    throw new ConfigurationError(`The API base URL is not a valid URL (its value is not printed): ${how} to an http(s) URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`The API base URL must use http or https, got ${url.protocol}: ${how}.`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`The API base URL must not contain credentials; pass the key as cloudplatform:apiKey instead.`);
  }
  if (url.search || url.hash) {
    throw new ConfigurationError(`The API base URL must not contain a query string or fragment: ${how}.`);
  }
  return url.toString().replace(/\/+$/, "");
}

function checkApiKey(value: string | undefined): string {
  const how = "set the Pulumi config `cloudplatform:apiKey` (as a secret) or the environment variable CLOUDPLATFORM_API_KEY";
  if (typeof value !== "string" || value.trim() === "") {
    throw new ConfigurationError(`No API key is configured: ${how}.`);
  }
  if (/[\s\u0000-\u001f\u007f]/.test(value.trim()) || value.trim() !== value) {
    throw new ConfigurationError(`The API key contains whitespace or control characters (it is not printed): ${how}.`);
  }
  return value;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || /^127\./.test(hostname);
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const h = headers as { get?: (n: string) => unknown } & Record<string, unknown>;
  const v = typeof h.get === "function" ? h.get(name) : h[name.toLowerCase()];
  if (v === undefined || v === null || v === false) return undefined;
  return Array.isArray(v) ? v.map(String).join(", ") : String(v);
}

function parseBody(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  if (raw.trim() === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The Node error code of a failed request, looking through axios wrappers and AggregateErrors. */
function errorCode(err: unknown): string {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === "object" && !seen.has(e)) {
    seen.add(e);
    const o = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.code === "string" && o.code !== "ERR_NETWORK" && o.code !== "ERR_BAD_RESPONSE") return o.code;
    if (Array.isArray(o.errors) && o.errors.length) {
      const inner = errorCode(o.errors[0]);
      if (inner !== "UNKNOWN") return inner;
    }
    e = o.cause;
  }
  if (err && typeof err === "object" && typeof (err as { code?: unknown }).code === "string") return (err as { code: string }).code;
  return "UNKNOWN";
}
