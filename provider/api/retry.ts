/**
 * The retry policy as data and the retry decision as pure functions: which failures are retried
 * is a safety property (a write is never sent twice after an ambiguous failure), tested as a table.
 */
import { publicError, type AttemptFailure, type FailureVerdict, type JudgedFailure } from "./attemptFailure";
import { formatDuration } from "./duration";
import { ConfigurationError, type CloudPlatformError } from "./errors";

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Tunables of the retry loop; every field has a default in {@link DEFAULT_RETRY_POLICY}. */
export interface RetryPolicy {
  /** Attempts in total, the first included. 1 disables retrying. */
  readonly maxAttempts: number;
  /** From the first attempt; no retry is scheduled past it. */
  readonly budgetMs: number;
  readonly baseDelayMs: number;
  readonly factor: number;
  /** Caps the computed backoff; a server's Retry-After may ask for more. */
  readonly maxDelayMs: number;
  /** 0.25 spreads each delay over [0.75, 1.25] x delay. */
  readonly jitter: number;
  /** Retried for idempotent methods (besides 5xx when {@link retryServerErrors}). */
  readonly retryStatuses: readonly number[];
  readonly retryServerErrors: boolean;
  /** Methods that may be repeated after an ambiguous failure. */
  readonly idempotentMethods: readonly HttpMethod[];
  /** Codes proving the request never left this machine; only these allow retrying a write. */
  readonly neverSentCodes: readonly string[];
  readonly neverRetryStatuses: readonly number[];
}

/**
 * Defaults: 5 attempts, a 60 s budget, 0.5 s doubling to at most 8 s, 25 % jitter; GET retried
 * on network errors, 408, 429 and 5xx; writes only on ECONNREFUSED, ENOTFOUND, EAI_AGAIN.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  budgetMs: 60_000,
  baseDelayMs: 500,
  factor: 2,
  maxDelayMs: 8_000,
  jitter: 0.25,
  retryStatuses: Object.freeze([408, 429]),
  retryServerErrors: true,
  idempotentMethods: Object.freeze(["GET"] as HttpMethod[]),
  neverSentCodes: Object.freeze(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]),
  neverRetryStatuses: Object.freeze([400, 401, 403, 404, 409, 422]),
});

/** Merge an override onto the defaults and check it, so a bad value fails at client creation. */
export function resolveRetryPolicy(override?: Partial<RetryPolicy>): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(override ?? {}) };
  const bad = (what: string): never => {
    throw new ConfigurationError(`Invalid retry option: ${what}`);
  };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) bad("maxAttempts must be an integer >= 1");
  if (!(policy.budgetMs >= 0)) bad("budgetMs must be >= 0");
  if (!(policy.baseDelayMs >= 0)) bad("baseDelayMs must be >= 0");
  if (!(policy.factor >= 1)) bad("factor must be >= 1");
  if (!(policy.maxDelayMs >= 0)) bad("maxDelayMs must be >= 0");
  if (!(policy.jitter >= 0 && policy.jitter <= 1)) bad("jitter must be within 0..1");
  return policy;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The verdict on a failed attempt. Retried, in this order: 400/401/403/404/409/422 never; a write
 * only when the request never left (connection refused, DNS failure) or got a 429 (refused
 * unread); a GET on any network error, 408, 429, 5xx and a malformed answer (a gateway's page, a
 * cut body: like a 5xx); an answer over the size cap never.
 */
export function classifyFailure(method: HttpMethod, failure: AttemptFailure, policy: RetryPolicy = DEFAULT_RETRY_POLICY): FailureVerdict {
  const retryAfterMs = failure.kind === "status" ? failure.retryAfterMs : undefined;
  const rateLimited = failure.kind === "status" && failure.status === 429;
  const paced = retryAfterMs !== undefined && retryAfterMs >= policy.baseDelayMs;
  const mayHaveActed = serverMayHaveActed(failure, policy);
  return {
    ...retryRule(method, failure, policy, mayHaveActed),
    // The server spacing requests out: a busy window may send many 429s before it answers.
    counts: !(rateLimited && paced),
    pauseMs: rateLimited && retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : undefined,
    retryAfterMs,
    paced,
    mayHaveActed,
  };
}

/** A 4xx is the server refusing; a 5xx, a malformed answer or no answer may come after it acted, unless the request never left. */
function serverMayHaveActed(failure: AttemptFailure, policy: RetryPolicy): boolean {
  if (failure.kind === "network") return !policy.neverSentCodes.includes(failure.code);
  if (failure.kind === "format") return true;
  return failure.status >= 500;
}

function retryRule(method: HttpMethod, failure: AttemptFailure, policy: RetryPolicy, mayHaveActed: boolean): Pick<FailureVerdict, "retry" | "reason"> {
  const idempotent = policy.idempotentMethods.includes(method);
  if (failure.kind === "format") {
    if (failure.tooLarge) return { retry: false, reason: "the answer exceeds the size cap; the same call would get it again" };
    return idempotent
      ? { retry: true, reason: "a malformed answer" }
      : { retry: false, reason: `a malformed answer to a ${method}: the server may have acted, so it is not repeated` };
  }
  if (failure.kind === "network") {
    if (!mayHaveActed) return { retry: true, reason: `${failure.code}: the request never reached the server` };
    return idempotent
      ? { retry: true, reason: `${failure.code} on an idempotent request` }
      : { retry: false, reason: `${failure.code} after the request may have reached the server; a ${method} is not repeated` };
  }
  const { status } = failure;
  if (policy.neverRetryStatuses.includes(status)) return { retry: false, reason: `status ${status} is never retried` };
  const retryable = policy.retryStatuses.includes(status) || (policy.retryServerErrors && status >= 500 && status <= 599);
  if (!retryable) return { retry: false, reason: `status ${status} is not retryable` };
  if (status === 429) return { retry: true, reason: "status 429: rate limited, the request was not acted on" };
  if (!idempotent) {
    return { retry: false, reason: mayHaveActed ? `status ${status} on a ${method}: the server may have acted, so it is not repeated` : `status ${status} on a ${method} is not repeated` };
  }
  return { retry: true, reason: `status ${status}` };
}

/** Case-insensitive. */
export type HeaderLookup = (name: string) => string | undefined;

/** `Retry-After-Ms`, else `Retry-After` (seconds or an HTTP date), in ms; undefined if unparseable. */
export function parseRetryAfter(header: HeaderLookup, nowMs: number): number | undefined {
  const ms = header("retry-after-ms");
  if (ms !== undefined && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const value = header("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter for retry number `retry` (1 = first retry). */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * Math.pow(policy.factor, Math.max(0, retry - 1)));
  const spread = raw * policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(raw + spread));
}

/** Where a request stands when one of its attempts fails. */
export interface AttemptState {
  /**
   * This attempt's number as the limit counts them, 1-based: earlier attempts that used up one of
   * `maxAttempts`, plus this one (a 429 that paces us holds its number, see {@link FailureVerdict.counts}).
   */
  readonly attempt: number;
  readonly elapsedMs: number;
}

/** Wait and try again, or stop with the caller's error. */
export type RetryStep =
  | { readonly action: "wait"; readonly delayMs: number; readonly reason: string }
  | { readonly action: "stop"; readonly error: CloudPlatformError };

function attemptCount(n: number): string {
  return n === 1 ? "1 attempt" : `${n} attempts`;
}

/** The whole retry decision for one judged failure: the verdict, the attempt limit, the budget. */
export function nextStep(failed: JudgedFailure, state: AttemptState, policy: RetryPolicy, random: () => number): RetryStep {
  const { verdict } = failed;
  const stop = (note?: string): RetryStep => ({ action: "stop", error: publicError(failed, state.attempt, note) });
  if (!verdict.retry) return stop();
  if (state.attempt >= policy.maxAttempts) return stop(`Gave up after ${attemptCount(state.attempt)}.`);
  const delayMs = retryDelayMs(state.attempt, verdict, policy, random);
  const remainingMs = policy.budgetMs - state.elapsedMs;
  if (delayMs <= remainingMs) return { action: "wait", delayMs, reason: verdict.reason };
  if (verdict.retryAfterMs === undefined) return stop(`The retry budget of ${formatDuration(policy.budgetMs)} is spent after ${attemptCount(state.attempt)}.`);
  return stop(`The server asked to retry after ${formatDuration(verdict.retryAfterMs)}, beyond the remaining retry budget of ${formatDuration(remainingMs)}; not retried.`);
}

function retryDelayMs(attempt: number, verdict: FailureVerdict, policy: RetryPolicy, random: () => number): number {
  const asked = Math.ceil(verdict.retryAfterMs ?? 0);
  return verdict.paced ? asked : Math.max(asked, backoffDelayMs(attempt, policy, random));
}
