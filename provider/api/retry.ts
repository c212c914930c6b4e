/**
 * The retry policy as plain data plus pure functions (after octokit plugin-retry).
 *
 * Why pure: which failures are retried is a safety property (a write must never be sent twice
 * after an ambiguous failure), so it is decided here, without I/O, and unit-tested directly.
 * p-retry runs the loop in client.ts; its hooks only ask {@link classifyFailure},
 * {@link retryDelayMs}, {@link isPacingDelay} and {@link budgetStop}.
 */

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Tunables of the retry loop; every field has a default in {@link DEFAULT_RETRY_POLICY}. */
export interface RetryPolicy {
  /** Attempts in total, the first included. 1 disables retrying. */
  readonly maxAttempts: number;
  /** Total time budget in ms from the first attempt; no retry is scheduled past it. */
  readonly budgetMs: number;
  /** Backoff before the first retry, in ms. */
  readonly baseDelayMs: number;
  /** Growth factor of the backoff per retry. */
  readonly factor: number;
  /** Upper bound of one computed backoff (a server's Retry-After may ask for more). */
  readonly maxDelayMs: number;
  /** Jitter as a fraction of the delay: 0.25 spreads each delay over [0.75, 1.25] x delay. */
  readonly jitter: number;
  /** Statuses retried for idempotent methods (besides 5xx when {@link retryServerErrors}). */
  readonly retryStatuses: readonly number[];
  /** Whether any 5xx is retried for idempotent methods. */
  readonly retryServerErrors: boolean;
  /** Methods that may be repeated after an ambiguous failure. */
  readonly idempotentMethods: readonly HttpMethod[];
  /**
   * Network error codes proving the request never left this machine; only these allow
   * retrying a write.
   */
  readonly neverSentCodes: readonly string[];
  /** Statuses never retried, whatever else says; listed for clarity and for overrides. */
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
    throw new RangeError(`Invalid retry policy: ${what}`);
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

/** What went wrong with one attempt, as seen by the policy. */
export type AttemptFailure =
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "network"; readonly code: string }
  /** A 2xx whose body is not the documented answer; `tooLarge` when it passed the size cap. */
  | { readonly kind: "format"; readonly tooLarge: boolean }
  | { readonly kind: "aborted" }
  /** Something the client itself threw (a bug, not an answer): repeating it would only repeat the bug. */
  | { readonly kind: "unexpected" };

/** The policy's verdict on one failed attempt. */
export interface RetryDecision {
  /** Whether another attempt is allowed (budget and attempt count are checked separately). */
  readonly retry: boolean;
  /** Human-readable reason, used in logs and in give-up notes. */
  readonly reason: string;
}

/** True when a network error code proves the request never reached the server. */
export function neverReachedServer(code: string, policy: RetryPolicy = DEFAULT_RETRY_POLICY): boolean {
  return policy.neverSentCodes.includes(code);
}

/**
 * Decide whether a failed attempt may be retried. The rules, in order:
 * caller aborts and the client's own bugs never; 400/401/403/404/409/422 never; a write only when
 * the request never left (connection refused, DNS failure); a GET on any network error, 408, 429, 5xx and a malformed
 * answer (a gateway's page, a cut body: like a 5xx); an answer over the size cap never.
 */
export function classifyFailure(method: HttpMethod, failure: AttemptFailure, policy: RetryPolicy = DEFAULT_RETRY_POLICY): RetryDecision {
  if (failure.kind === "aborted") return { retry: false, reason: "cancelled by the caller" };
  if (failure.kind === "unexpected") return { retry: false, reason: "an unexpected error in the client, not an answer of the API" };
  const idempotent = policy.idempotentMethods.includes(method);
  if (failure.kind === "format") {
    if (failure.tooLarge) return { retry: false, reason: "the answer exceeds the size cap; the same call would get it again" };
    return idempotent
      ? { retry: true, reason: "a malformed answer" }
      : { retry: false, reason: `a malformed answer to a ${method}: the server may have acted, so it is not repeated` };
  }
  if (failure.kind === "network") {
    if (neverReachedServer(failure.code, policy)) {
      return { retry: true, reason: `${failure.code}: the request never reached the server` };
    }
    return idempotent
      ? { retry: true, reason: `${failure.code} on an idempotent request` }
      : { retry: false, reason: `${failure.code} after the request may have reached the server; a ${method} is not repeated` };
  }
  const { status } = failure;
  if (policy.neverRetryStatuses.includes(status)) return { retry: false, reason: `status ${status} is never retried` };
  const retryable = policy.retryStatuses.includes(status) || (policy.retryServerErrors && status >= 500 && status <= 599);
  if (!retryable) return { retry: false, reason: `status ${status} is not retryable` };
  // A 429 is the server refusing the request without acting on it, so any method may repeat it.
  if (status === 429) return { retry: true, reason: "status 429: rate limited, the request was not acted on" };
  if (!idempotent) return { retry: false, reason: `status ${status} on a ${method}: the server may have acted, so it is not repeated` };
  return { retry: true, reason: `status ${status}` };
}

/** Response headers as a case-insensitive lookup. */
export type HeaderLookup = (name: string) => string | undefined;

/**
 * The delay a server asked for, in ms: `Retry-After-Ms` (milliseconds) first, then
 * `Retry-After` as delta-seconds or an HTTP date (relative to `nowMs`). `undefined` if absent
 * or unparseable; never negative.
 */
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

/**
 * Exponential backoff with jitter for retry number `retry` (1 = first retry):
 * `min(maxDelayMs, baseDelayMs * factor^(retry-1))`, spread by +/- jitter. `random` is
 * injectable so tests are deterministic.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * Math.pow(policy.factor, Math.max(0, retry - 1)));
  const spread = raw * policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(raw + spread));
}

/**
 * True when a server's Retry-After really paces us: it asks for at least the policy's base
 * delay. A `Retry-After: 0` is no pacing, and treating it as such would loop requests as fast
 * as the network allows until the time budget ran out.
 */
export function isPacingDelay(retryAfterMs: number | undefined, policy: RetryPolicy): retryAfterMs is number {
  return retryAfterMs !== undefined && retryAfterMs >= policy.baseDelayMs;
}

/**
 * The wait before retry number `retry`: the server's Retry-After when it paces us (never less,
 * so a rate limit is honoured), otherwise the jittered backoff, and never less than a shorter
 * Retry-After asked for.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (isPacingDelay(retryAfterMs, policy)) return Math.ceil(retryAfterMs);
  return Math.max(Math.ceil(retryAfterMs ?? 0), backoffDelayMs(retry, policy, random));
}

/** Why retrying stops although the policy allows it; `undefined` means go on. */
export function budgetStop(
  policy: RetryPolicy,
  attempt: number,
  elapsedMs: number,
  delayMs: number,
  retryAfterMs: number | undefined,
): string | undefined {
  if (attempt >= policy.maxAttempts) return `Gave up after ${attempt} attempts.`;
  const remaining = policy.budgetMs - elapsedMs;
  if (delayMs > remaining) {
    const secs = (n: number) => `${Math.max(0, Math.ceil(n / 1000))} s`;
    return retryAfterMs !== undefined
      ? `The server asked to retry after ${secs(retryAfterMs)}, beyond the remaining retry budget of ${secs(remaining)}; not retried.`
      : `The retry budget of ${secs(policy.budgetMs)} is spent after ${attempt} attempts.`;
  }
  return undefined;
}
