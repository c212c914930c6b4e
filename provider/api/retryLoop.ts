/**
 * The retry loop of one request: p-retry repeats the attempt, {@link nextStep} (retry.ts)
 * decides after each failure, the pacer (pacing.ts) spaces the attempts.
 *
 * p-retry's own wait and `maxRetryTime` stay off: they run on the global timers and
 * `performance.now()` and know no Retry-After, while the client's waits and budget run on its
 * injectable `sleep`, `random` and `now`. Its `retries` is Infinity because p-retry checks it
 * only after `onFailedAttempt` has waited: the attempt limit is the decision's, counted on
 * `retriesConsumed` (a 429 that paces us consumes none).
 */
import { AttemptFailed, type AttemptFailure } from "./attemptFailure";
import type { ResolvedOptions } from "./clientOptions";
import { CloudPlatformError, messageOf, RequestAbortedError } from "./errors";
import { familyOf } from "./pacing";
import { abortRetries, pRetry } from "./pRetry";
import { nextStep, usesUpAnAttempt, type HttpMethod } from "./retry";
import type { ApiResponse, RequestSpec } from "./transport";

/**
 * Sends `spec` by `attempt` until it succeeds, or the decision or the caller's signal stops it;
 * `path` is the request's path as messages show it (the key redacted).
 */
export async function withRetries<T>(o: ResolvedOptions, spec: RequestSpec<T>, path: string, attempt: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  const started = o.now();
  const signal = spec.options?.signal;
  const request = Symbol(path);
  const send = () =>
    o.pacer.send(familyOf(spec.path), attempt, pauseOf, {
      signal,
      request,
      maxPauseMs: o.policy.budgetMs - (o.now() - started),
      onHold: (ms) => o.logger?.warn?.(`${spec.method} ${path} held ${ms} ms: the API asked (429 Retry-After) to pause these requests`),
    });
  try {
    return await pRetry(() => send().catch((err: unknown) => Promise.reject(err instanceof AttemptFailed ? err : abortRetries(notAnAnswer(o, err)))), {
      retries: Number.POSITIVE_INFINITY,
      minTimeout: 0,
      signal,
      shouldConsumeRetry: ({ error }) => usesUpAnAttempt(failureOf(error), o.policy),
      onFailedAttempt: async ({ error, attemptNumber, retriesConsumed }) => {
        const failure = failureOf(error);
        const step = nextStep(failure, { method: spec.method, number: attemptNumber, counted: retriesConsumed, elapsedMs: o.now() - started }, o.policy, o.random);
        if (step.action === "stop") throw step.error;
        announceRetry(o, { method: spec.method, path, attempt: attemptNumber, delayMs: step.delayMs, reason: step.reason }, failure);
        await o.sleep(step.delayMs, signal);
      },
    });
  } catch (err) {
    throw signal?.aborted ? new RequestAbortedError(spec.method, path) : err;
  }
}

/** How long a failed attempt pauses its family: a 429's Retry-After. */
function pauseOf(err: unknown): number | undefined {
  return err instanceof AttemptFailed && err.failure.kind === "status" && err.failure.status === 429 ? err.failure.retryAfterMs : undefined;
}

/** The failure p-retry hands a hook: every attempt error is an AttemptFailed (the rest end the loop as AbortError). */
function failureOf(err: Error): AttemptFailure {
  if (err instanceof AttemptFailed) return err.failure;
  throw err;
}

/** Something other than a failed attempt (a cancellation, a bug of the client): the caller's error, redacted. */
function notAnAnswer(o: ResolvedOptions, err: unknown): CloudPlatformError {
  return err instanceof CloudPlatformError ? err : new CloudPlatformError(o.scrub(messageOf(err)));
}

/** Tells the log and `onRetry` that an attempt failed and is retried after a wait. */
function announceRetry(o: ResolvedOptions, e: { method: HttpMethod; path: string; attempt: number; delayMs: number; reason: string }, failure: AttemptFailure): void {
  o.logger?.warn?.(o.scrub(`${e.method} ${e.path} attempt ${e.attempt} failed (${e.reason}); retrying in ${e.delayMs} ms`));
  const status = failure.kind === "status" ? failure.status : undefined;
  const code = failure.kind === "network" ? failure.code : undefined;
  o.onRetry?.({ ...e, reason: o.scrub(e.reason), status, code });
}
