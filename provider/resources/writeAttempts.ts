/**
 * Writes whose outcome is unknown: after an ambiguous failure, let the request settle, read
 * back, and send again only when the read proves the first took no effect (the client cannot
 * know; the lifecycles can read). A read that cannot tell never leads to a second send.
 *
 * No race with an in-flight write: a request that may still be travelling (no answer, a 504)
 * cannot be recalled, so the read-back waits its timeout again plus a margin; after an answered
 * failure the short settle delay is enough.
 */
import { CloudPlatformError, ConnectionError, RequestAbortedError, RequestError, ServerError } from "../api/errors";
import { formatDuration } from "../api/duration";
import type { RequestOptions } from "../api/transport";
import { sleep } from "../api/sleep";
import { messageOf, reworded } from "../caughtErrors";

/** What reading back after an ambiguous failure showed. */
export type ProbeResult<T> =
  /** The write took effect; `value` is what the write would have returned. */
  | { readonly outcome: "applied"; readonly value: T }
  /** The write provably took no effect: sending it again is safe. */
  | { readonly outcome: "absent" }
  /** Something else holds the place the write wanted; `error` says what, for the user. */
  | { readonly outcome: "conflict"; readonly error: Error }
  /** The read cannot tell; `reason` says what it saw. */
  | { readonly outcome: "unclear"; readonly reason: string };

/** One write to reconcile. */
export interface ReconciledWrite<T> {
  /** For log lines and errors: `the create of reaching_used_space ...`. */
  readonly what: string;
  /** `options` carries the per-request timeout the settle rule counts on: pass it to the API call. */
  send(attempt: number, options: RequestOptions): Promise<T>;
  probe(): Promise<ProbeResult<T>>;
  log(message: string): void;
  /** Ends the settle and resend waits at once (Ctrl-C, `customTimeouts`); nothing more is sent. */
  readonly signal?: AbortSignal | undefined;
}

/** How long to let a request settle, how often to send in all, and how to wait. */
export interface WriteTiming {
  /** After an answered ambiguous failure (500/502/503, a malformed 2xx). */
  readonly settleMs: number;
  /** Each write's timeout, waited again (plus the margin) after a failure that may leave it in flight. */
  readonly requestTimeoutMs: number;
  readonly inFlightMarginMs: number;
  /** Sends in total, the first included. */
  readonly maxAttempts: number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Production timing; 30 s is the client's default request timeout. */
export const DEFAULT_WRITE_TIMING: WriteTiming = {
  settleMs: 3_000,
  requestTimeoutMs: 30_000,
  inFlightMarginMs: 5_000,
  maxAttempts: 5,
  sleep: (ms, signal) => sleep(ms, signal),
};

/** Reading back could not prove the write took no effect; never suggests resending by hand. */
export class WriteOutcomeUnknownError extends CloudPlatformError {
  constructor(what: string, cause: Error, seen: string) {
    super(
      `${cause.message}. ${capitalized(what)} may have taken effect (${seen}), so it was not sent again; ` +
        "run `pulumi up` again: it reads the platform first and does not repeat a write that took effect.",
    );
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A failure that does not tell whether the write took effect (a gateway may answer 502 after the
 * backend acted): the transport's verdict, carried by the request's error.
 */
export function isAmbiguousWrite(err: unknown): err is RequestError {
  return err instanceof RequestError && err.mayHaveActed;
}

/** No answer although the request may have left, or a 504 (the backend may still be working). */
export function mayStillBeInFlight(err: CloudPlatformError): boolean {
  if (err instanceof ConnectionError) return err.mayHaveReachedServer;
  return err instanceof ServerError && err.status === 504;
}

/** How long to wait after `failure` before reading back. */
export function settleDelayMs(failure: CloudPlatformError, timing: WriteTiming): number {
  return mayStillBeInFlight(failure) ? timing.requestTimeoutMs + timing.inFlightMarginMs : timing.settleMs;
}

/** Backoff before send `next` (2-based), after the settle delay: 0.5 s doubling, at most 4 s. */
export function resendDelayMs(next: number): number {
  return Math.min(4_000, 500 * 2 ** Math.max(0, next - 2));
}

/** Sends `write`, reconciling ambiguous failures by reading back; other failures are thrown as they are. */
export async function reconcileWrite<T>(write: ReconciledWrite<T>, timing: WriteTiming = DEFAULT_WRITE_TIMING): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let failure: CloudPlatformError;
    try {
      return await write.send(attempt, { timeoutMs: timing.requestTimeoutMs });
    } catch (err) {
      if (err instanceof RequestAbortedError) {
        // No time left to read back, and it may have landed.
        throw new WriteOutcomeUnknownError(write.what, err, "the operation was stopped while the request was in flight");
      }
      if (!isAmbiguousWrite(err)) throw err;
      failure = err;
    }
    const settle = settleDelayMs(failure, timing);
    write.log(`${write.what} failed without a usable answer (${failure.message}); reading back in ${formatDuration(settle)} to see whether it took effect`);
    await timing.sleep(settle, write.signal);
    if (write.signal?.aborted) throw new WriteOutcomeUnknownError(write.what, failure, "the operation was stopped before reading back");
    let probed: ProbeResult<T>;
    try {
      probed = await write.probe();
    } catch (probeErr) {
      throw new WriteOutcomeUnknownError(write.what, failure, `reading back failed too: ${messageOf(probeErr)}`);
    }
    switch (probed.outcome) {
      case "applied":
        write.log(`${write.what} took effect after all; not sending it again`);
        return probed.value;
      case "conflict":
        throw probed.error;
      case "unclear":
        throw new WriteOutcomeUnknownError(write.what, failure, probed.reason);
      case "absent":
        break;
    }
    if (attempt >= timing.maxAttempts) {
      throw reworded(failure, `${failure.message} (${write.what} was sent ${attempt} times and reading back proved each time that it took no effect; it is safe to run \`pulumi up\` again)`);
    }
    write.log(`reading back proved ${write.what} took no effect; sending it again (attempt ${attempt + 1} of ${timing.maxAttempts})`);
    await timing.sleep(resendDelayMs(attempt + 1), write.signal);
    if (write.signal?.aborted) {
      throw reworded(failure, `${failure.message} (reading back proved ${write.what} took no effect; the operation was stopped before sending it again)`);
    }
  }
}
