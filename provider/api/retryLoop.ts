/**
 * The retry loop of one request: p-retry runs it, the policy (retry.ts) decides, the pacer
 * (pacing.ts) spaces the attempts.
 *
 * What p-retry does here: it repeats the attempt (`retries`, with a 429 whose Retry-After paces
 * us using up none: `shouldConsumeRetry`), stops on `signal`, and stops when `shouldRetry` (the
 * policy's verdict) says so. The wait before the next attempt, the server's Retry-After (which
 * the pacer has just made the pause of the whole family) or the jittered backoff, is awaited
 * inside its `onFailedAttempt`.
 *
 * What it does not do, and why:
 * - Its own backoff (`minTimeout: 0`): p-retry waits on the global `setTimeout` with
 *   `Math.random` jitter of [1, 2) x, while the client's waits go through its `sleep` and
 *   `random` options (tests and callers observe every wait there) with the policy's +/- jitter,
 *   and must honour a Retry-After, which p-retry cannot know.
 * - `maxRetryTime`: p-retry reads `performance.now()` and takes no clock, while the client's
 *   budget runs on its `now` option (the same clock as Retry-After dates and the pacer's
 *   limits). Two clocks would give two budgets; so the one budget is checked by `budgetStop`
 *   against `now` before each wait, and a wait past it ends the loop with the reason.
 */
import { AttemptFailed, publicError, retryAfterOf, type FailureRecord } from "./attemptFailure";
import type { ResolvedOptions } from "./clientOptions";
import { CloudPlatformError, messageOf, RequestAbortedError } from "./errors";
import { familyOf } from "./pacing";
import { pRetry } from "./pRetry";
import { budgetStop, classifyFailure, isPacingDelay, retryDelayMs } from "./retry";
import type { ApiResponse, RequestSpec } from "./transport";

/** How long a failed attempt holds its family: a 429's Retry-After. */
function familyPause(err: unknown): number | undefined {
  return err instanceof AttemptFailed && err.record.kind === "status" && err.record.status === 429 ? err.record.retryAfterMs : undefined;
}

/** Sends `spec` by `attempt` until it succeeds or the policy, budget or signal stops it. */
export async function withRetries<T>(o: ResolvedOptions, spec: RequestSpec<T>, attempt: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  const { policy, now, pacer } = o;
  const started = now();
  const signal = spec.options?.signal;
  const path = o.scrub(spec.path);
  const family = familyOf(spec.path);
  /** The failure as the loop sees it: a thrown record, or anything else as an unexpected error. */
  const recordOf = (err: unknown): FailureRecord => {
    if (err instanceof AttemptFailed) return err.record;
    if (signal?.aborted) return { kind: "aborted", method: spec.method, path };
    return { kind: "unexpected", error: err instanceof CloudPlatformError ? err : new CloudPlatformError(o.scrub(messageOf(err))) };
  };
  /** A 429 whose Retry-After really paces us: the server's pacing, not a failure. */
  const paced = (r: FailureRecord) => r.kind === "status" && r.status === 429 && isPacingDelay(r.retryAfterMs, policy);
  const request = Symbol(path);

  try {
    return await pRetry(
      (attemptNumber) =>
        pacer
          .send(family, attempt, familyPause, {
            signal,
            request,
            maxPauseMs: policy.budgetMs - (now() - started),
            onHold: (ms) => o.logger?.warn?.(o.scrub(`${spec.method} ${path} held ${ms} ms: the API asked (429 Retry-After) to pause these requests`)),
          })
          .catch((err: unknown) => {
            throw new AttemptFailed(recordOf(err), attemptNumber);
          }),
      {
        retries: policy.maxAttempts - 1,
        minTimeout: 0,
        signal,
        shouldConsumeRetry: ({ error }) => !paced(recordOf(error)),
        shouldRetry: ({ error }) => classifyFailure(spec.method, recordOf(error), policy).retry,
        onFailedAttempt: async ({ error, attemptNumber, retriesConsumed, retriesLeft }) => {
          const record = recordOf(error);
          const decision = classifyFailure(spec.method, record, policy);
          if (!decision.retry) return; // shouldRetry ends the loop
          const used = retriesConsumed + (paced(record) ? 0 : 1);
          const retryAfterMs = retryAfterOf(record);
          const delayMs = retryDelayMs(Math.max(1, used), policy, retryAfterMs, o.random);
          const note = budgetStop(policy, used, now() - started, delayMs, retryAfterMs) ?? (retriesLeft <= 0 ? `Gave up after ${attemptNumber} attempts.` : undefined);
          // p-retry rejects with what its onFailedAttempt throws: the public error, with the reason.
          if (note) throw publicError(record, attemptNumber, note);
          const status = record.kind === "status" ? record.status : undefined;
          const code = record.kind === "network" ? record.code : undefined;
          o.logger?.warn?.(o.scrub(`${spec.method} ${path} attempt ${attemptNumber} failed (${decision.reason}); retrying in ${delayMs} ms`));
          o.onRetry?.({ method: spec.method, path, attempt: attemptNumber, delayMs, reason: o.scrub(decision.reason), status, code });
          await o.sleep(delayMs, signal);
        },
      },
    );
  } catch (err) {
    if (signal?.aborted) throw new RequestAbortedError(spec.method, path);
    throw err instanceof AttemptFailed ? publicError(err.record, err.attempt) : err;
  }
}
