/**
 * The retry loop of one request: p-retry repeats the attempt, each failure's verdict (retry.ts,
 * judged once where the attempt failed) answers its hooks, {@link nextStep} decides after each
 * failure, the pacer (pacing.ts) spaces the attempts.
 *
 * p-retry's own wait and `maxRetryTime` stay off: they run on the global timers and
 * `performance.now()` and know no Retry-After, while the client's waits and budget run on its
 * injectable `sleep`, `random` and `now`. Its `retries` is Infinity because p-retry checks it
 * only after `onFailedAttempt` has waited: the attempt limit is the decision's, on p-retry's
 * `retriesConsumed`, the one count of attempts (a 429 that paces us consumes none).
 */
import { AttemptFailed } from "./attemptFailure";
import type { RetryLoopOptions } from "./clientOptions";
import { formatDuration } from "./duration";
import { CloudPlatformError, messageOf, RequestAbortedError } from "./errors";
import { familyOf } from "./pacing";
import { abortRetries, pRetry } from "./pRetry";
import { nextStep, type HttpMethod } from "./retry";
import type { ApiResponse, RequestSpec } from "./transport";

/**
 * Sends `spec` by `attempt` until it succeeds, or the decision or the caller's signal stops it;
 * `path` is the request's path as messages show it (the key redacted), `attempt` rejects with
 * {@link AttemptFailed} when the answer is a failure.
 */
export async function withRetries<T>(o: RetryLoopOptions, spec: RequestSpec<T>, path: string, attempt: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  const started = o.now();
  const signal = spec.options?.signal;
  const request = Symbol(path);
  // The attempt about to be sent, and the last one that was: what a cancellation reports.
  let nextAttempt = 1;
  let lastAttempt = 1;
  const sendNext = () => {
    lastAttempt = nextAttempt;
    return attempt();
  };
  const send = () =>
    o.pacer.send(familyOf(spec.path), sendNext, pauseOf, {
      signal,
      request,
      maxPauseMs: o.policy.budgetMs - (o.now() - started),
      onHold: (ms) => o.logger?.warn?.(`${spec.method} ${path} held ${formatDuration(ms)}: the API asked (429 Retry-After) to pause these requests`),
    });
  try {
    return await pRetry(() => send().catch((err: unknown) => Promise.reject(err instanceof AttemptFailed ? err : abortRetries(notAnAnswer(err)))), {
      retries: Number.POSITIVE_INFINITY,
      minTimeout: 0,
      signal,
      shouldConsumeRetry: ({ error }) => judged(error).verdict.counts,
      onFailedAttempt: async ({ error, retriesConsumed }) => {
        const failed = judged(error);
        const attemptNumber = retriesConsumed + 1;
        const step = nextStep(failed, { attempt: attemptNumber, elapsedMs: o.now() - started }, o.policy, o.random);
        if (step.action === "stop") throw step.error;
        nextAttempt = attemptNumber + (failed.verdict.counts ? 1 : 0);
        announceRetry(o, { method: spec.method, path, attempt: attemptNumber, delayMs: step.delayMs, reason: step.reason }, failed);
        await o.sleep(step.delayMs, signal);
      },
    });
  } catch (err) {
    throw signal?.aborted ? new RequestAbortedError(spec.method, path, lastAttempt) : err;
  }
}

function pauseOf(err: unknown): number | undefined {
  return err instanceof AttemptFailed ? err.verdict.pauseMs : undefined;
}

/** The failure p-retry hands a hook: every attempt error is an AttemptFailed (the rest end the loop as AbortError). */
function judged(err: Error): AttemptFailed {
  if (err instanceof AttemptFailed) return err;
  throw err;
}

/** Something other than a failed attempt (a cancellation while queued): the caller's error. */
function notAnAnswer(err: unknown): CloudPlatformError {
  return err instanceof CloudPlatformError ? err : new CloudPlatformError(messageOf(err));
}

function announceRetry(o: RetryLoopOptions, e: { method: HttpMethod; path: string; attempt: number; delayMs: number; reason: string }, { failure, verdict }: AttemptFailed): void {
  o.logger?.warn?.(`${e.method} ${e.path} attempt ${e.attempt} failed (${e.reason}); retrying in ${formatDuration(e.delayMs)}`);
  const status = failure.kind === "status" ? failure.status : undefined;
  const code = failure.kind === "network" ? failure.code : undefined;
  o.onRetry?.({ ...e, usedAnAttempt: verdict.counts, status, code });
}
