/**
 * The HTTP transport and `createClient`, the only module that imports axios.
 *
 * Why one transport: auth, user agent, timeouts, the retry policy, error mapping and key
 * redaction are each decided once, here, so no product module can forget one of them.
 */
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import type { Readable } from "stream";
import { cloudApi, type CloudApi } from "./cloud";
import { dnsApi, type DnsApi } from "./dns/analyze";
import {
  CloudPlatformError,
  ConfigurationError,
  ConnectionError,
  makeApiError,
  RequestAbortedError,
  ResponseFormatError,
  ResponseTooLargeError,
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
import { checkSuccessBody, DEFAULT_MAX_RESPONSE_BYTES, ERROR_BODY_KEEP_BYTES, quoteText, readCapped, type BodyProblem } from "./responseBody";
import { familyOf, sharedPacer } from "./pacing";
import { parseServerError, productOf } from "./serverErrors";
import { anySignal } from "./abort";
import { sleep as defaultSleep } from "./sleep";
import { pRetry } from "./pRetry";
import { storageApi, type StorageApi } from "./storage/notifications";
import { streamingApi, type StreamingApi } from "./streaming/aiTasks";
import type { ApiResponse, RequestSpec, Transport } from "./transport";
import { checkBaseUrl, isLoopback, serializeQuery } from "./url";
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
   * Largest success body read, in bytes (default 64 MiB); a larger answer fails with
   * ResponseTooLargeError once the cap is reached, without buffering the rest.
   */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Allow an `http://` base URL to a host other than loopback (the key then travels in
   * cleartext). Off by default; the config `cloudplatform:allowInsecureHttp` sets it (`true`,
   * `false`, or that text as the config gives it; anything else is a ConfigurationError).
   */
  readonly allowInsecureHttp?: boolean | string | undefined;
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
  /**
   * The same client (one transport, so pacing and settings are shared) with every request
   * also cancelled by `signal`. Why: a provider operation passes its abort signal (Ctrl-C,
   * `customTimeouts`) once, here, instead of to each call.
   */
  withSignal(signal: AbortSignal | undefined): CloudPlatformClient;
}

/**
 * Create an API client. Throws ConfigurationError when the base URL or key is missing or
 * malformed, naming the config key and the environment variable that set it.
 */
export function createClient(options: ClientOptions): CloudPlatformClient {
  return clientOver(createTransport(options));
}

function clientOver(transport: Transport & { readonly baseUrl: string }): CloudPlatformClient {
  const client: CloudPlatformClient = Object.freeze({
    baseUrl: transport.baseUrl,
    cloud: cloudApi(transport),
    storage: storageApi(transport),
    dns: dnsApi(transport),
    waap: waapApi(transport),
    streaming: streamingApi(transport),
    iam: iamApi(transport),
    withSignal: (signal: AbortSignal | undefined) => (signal ? clientOver(withSignal(transport, signal)) : client),
  });
  return client;
}

/** `transport` with `signal` added to every request's own signal (either one cancels it). */
function withSignal(transport: Transport & { readonly baseUrl: string }, signal: AbortSignal): Transport & { readonly baseUrl: string } {
  return {
    baseUrl: transport.baseUrl,
    request: (spec) => {
      const own = spec.options?.signal;
      return transport.request({ ...spec, options: { ...spec.options, signal: own ? anySignal([own, signal]) : signal } });
    },
  };
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
 * where an inspected object could show it), and the retries of {@link request}, driven by
 * p-retry: the waits use the injected sleep and clock, honour Retry-After and stop on abort.
 */
export function createTransport(options: ClientOptions): Transport & { readonly baseUrl: string } {
  const baseUrl = checkBaseUrl(options.baseUrl, { allowInsecureHttp: options.allowInsecureHttp });
  const apiKey = checkApiKey(options.apiKey);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isInteger(maxResponseBytes) && maxResponseBytes > 0)) {
    throw new ConfigurationError(`maxResponseBytes must be a positive integer, got ${maxResponseBytes}`);
  }
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
    // A stream, read by readCapped: the size cap holds while reading, not after buffering.
    responseType: "stream",
    decompress: true,
    validateStatus: () => true,
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
  });

  async function attemptOnce<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const started = now();
    // The path as errors, logs and responses show it (a key could be a path parameter).
    const path = scrub(spec.path);
    const attemptTimeoutMs = spec.options?.timeoutMs ?? timeoutMs;
    let res: AxiosResponse<Readable>;
    try {
      res = await http.request<Readable>({
        method: spec.method,
        url: spec.path + serializeQuery(spec.query),
        headers: {
          Authorization: `apikey ${apiKey}`,
          "User-Agent": userAgent,
          Accept: "application/json",
          ...(spec.body !== undefined ? { "Content-Type": "application/json" } : {}),
        },
        data: spec.body !== undefined ? JSON.stringify(spec.body) : undefined,
        timeout: attemptTimeoutMs,
        signal: spec.options?.signal,
      });
    } catch (err) {
      throw networkFailure(spec, err);
    }
    const header: HeaderLookup = (name) => headerValue(res.headers, name);
    const success = res.status >= 200 && res.status < 300;
    const formatFailure = (problem: BodyProblem, tooLarge = false): AttemptFailed => {
      const init = { method: spec.method, path, status: res.status, field: scrub(problem.field), problem: scrub(problem.problem), received: scrub(problem.received) };
      const make = (attempts: number, note: string | undefined) =>
        tooLarge ? new ResponseTooLargeError({ ...init, attempts, note }) : new ResponseFormatError({ ...init, attempts, note });
      return new AttemptFailed(make, { kind: "format", tooLarge }, undefined);
    };
    const cap = success ? maxResponseBytes : ERROR_BODY_KEEP_BYTES;
    const declared = Number(header("content-length"));
    if (success && declared > cap) {
      res.data.destroy();
      throw formatFailure(tooLargeProblem(declared, maxResponseBytes), true);
    }
    let body;
    try {
      body = await readCapped(res.data, cap, Math.max(1, attemptTimeoutMs - (now() - started)), spec.options?.signal);
    } catch (err) {
      throw networkFailure(spec, err);
    }
    logger?.debug?.(scrub(`${spec.method} ${path} -> ${res.status} (${Math.round(now() - started)} ms)`));
    if (success) {
      if (body.overflow) throw formatFailure(tooLargeProblem(undefined, maxResponseBytes), true);
      const checked = checkSuccessBody(spec.response, header("content-type"), body);
      if (!checked.ok) throw formatFailure(checked.problem);
      return { method: spec.method, path, status: res.status, data: checked.data as T, header };
    }
    const data = parseErrorBody(body.text, body.overflow);
    const parsed = parseServerError(productOf(spec.path), data);
    const retryAfterMs = parseRetryAfter(header, now());
    const redirect = res.status >= 300 && res.status < 400 ? redirectMessage(header("location")) : undefined;
    const init = {
      method: spec.method,
      path,
      status: res.status,
      serverMessage: scrub(redirect ?? parsed.message),
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

  function networkFailure(spec: RequestSpec<unknown>, err: unknown): AttemptFailed {
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
   * The retry policy, top to bottom, as p-retry's options; what is retried is decided by
   * retry.ts `classifyFailure` (never a write that may have reached the server).
   * - `retries`: the policy's attempts; `shouldConsumeRetry` lets a 429 whose Retry-After really
   *   paces us use up none (it is the server's pacing, not a failure), so for a run of those the
   *   time budget is the bound.
   * - `onFailedAttempt`: ask the policy; if it allows another attempt and attempts and budget
   *   remain (`budgetStop` words why not), wait: the server's Retry-After or the jittered
   *   backoff, through the injectable, abortable sleep. p-retry's own backoff is off
   *   (`minTimeout: 0`): it knows neither Retry-After nor jitter.
   * - `shouldRetry`: go on exactly when `onFailedAttempt` waited.
   * - `signal` ends a wait and the loop (RequestAbortedError); `maxRetryTime` backs the budget.
   */
  async function request<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>> {
    const started = now();
    const signal = spec.options?.signal;
    const path = scrub(spec.path);
    const paced = (f: AttemptFailed) => f.failure.kind === "status" && f.failure.status === 429 && isPacingDelay(f.retryAfterMs, policy);
    let attempts = 0;
    let pauseWaited = false;
    let stop: { readonly note?: string | undefined } | undefined;
    try {
      return await pRetry(
        (attempt) => {
          attempts = attempt;
          return pacer.send(familyOf(spec.path), () => attemptOnce(spec), familyPause, {
            signal,
            pauseWaited,
            maxPauseMs: policy.budgetMs - (now() - started),
            onHold: (ms) => logger?.warn?.(scrub(`${spec.method} ${path} held ${ms} ms: the API asked (429 Retry-After) to pause these requests`)),
          });
        },
        {
          retries: policy.maxAttempts - 1,
          minTimeout: 0,
          maxRetryTime: policy.budgetMs,
          signal,
          shouldConsumeRetry: ({ error }) => !paced(asAttemptFailed(error)),
          onFailedAttempt: async ({ error, attemptNumber, retriesConsumed, retriesLeft }) => {
            const failed = asAttemptFailed(error);
            const decision = classifyFailure(spec.method, failed.failure, policy);
            if (!decision.retry) return void (stop = {});
            const used = retriesConsumed + (paced(failed) ? 0 : 1);
            const delayMs = retryDelayMs(Math.max(1, used), policy, failed.retryAfterMs, random);
            const note =
              budgetStop(policy, used, now() - started, delayMs, failed.retryAfterMs) ??
              (retriesLeft <= 0 ? `Gave up after ${attemptNumber} attempts.` : undefined);
            if (note) return void (stop = { note });
            stop = undefined;
            const status = failed.failure.kind === "status" ? failed.failure.status : undefined;
            const code = failed.failure.kind === "network" ? failed.failure.code : undefined;
            logger?.warn?.(scrub(`${spec.method} ${path} attempt ${attemptNumber} failed (${decision.reason}); retrying in ${delayMs} ms`));
            options.onRetry?.({ method: spec.method, path, attempt: attemptNumber, delayMs, reason: scrub(decision.reason), status, code });
            await sleep(delayMs, signal);
            // The pacer need not hold this request again for the pause it has just waited out.
            pauseWaited = status === 429 && failed.retryAfterMs !== undefined;
          },
          shouldRetry: () => stop === undefined,
        },
      );
    } catch (err) {
      if (signal?.aborted) throw new RequestAbortedError(spec.method, path);
      // Ended by p-retry's own clock (maxRetryTime) after a wait: the budget is spent.
      const note = stop ? stop.note : budgetStop(policy, attempts, policy.budgetMs, 1, undefined);
      throw asAttemptFailed(err).make(attempts, note);
    }
  }

  /** A failed attempt as the loop sees it; an unexpected throw (a bug) is surfaced redacted, never retried. */
  function asAttemptFailed(err: unknown): AttemptFailed {
    if (err instanceof AttemptFailed) return err;
    const error = err instanceof CloudPlatformError ? err : new CloudPlatformError(scrub(String(err instanceof Error ? err.message : err)));
    return new AttemptFailed(() => error, { kind: "unexpected" }, undefined);
  }

  return { baseUrl, request };
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

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const h = headers as { get?: (n: string) => unknown } & Record<string, unknown>;
  const v = typeof h.get === "function" ? h.get(name) : h[name.toLowerCase()];
  if (v === undefined || v === null || v === false) return undefined;
  return Array.isArray(v) ? v.map(String).join(", ") : String(v);
}

/** An error body: its JSON when it parses, else its text, cut short either way. */
function parseErrorBody(text: string, cut: boolean): unknown {
  if (text.trim() === "") return undefined;
  if (!cut) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON: kept as text below
    }
  }
  return text.length > 2000 ? `${text.slice(0, 2000)}...` : text;
}

function tooLargeProblem(declared: number | undefined, cap: number): BodyProblem {
  const size = declared !== undefined ? `${declared} bytes (Content-Length)` : `more than ${cap} bytes`;
  return { field: "(body)", problem: `the body exceeds the client's maxResponseBytes of ${cap} bytes; reading stopped there`, received: size };
}

/** A 3xx: said plainly, since following it could send the key to another address. */
function redirectMessage(location: string | undefined): string {
  const where = location ? `redirected to ${quoteText(location).replace(/^text /, "")}` : "redirected";
  return `${where}; redirects are not followed, so the API key never goes to another address: set cloudplatform:baseUrl to the address that answers`;
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
