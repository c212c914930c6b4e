/**
 * The one rule for writes whose outcome is unknown: send, and after an ambiguous failure let
 * the request settle, read back, and send again only when the read proves the first took no
 * effect.
 *
 * Why here: the client never repeats a POST/PUT/DELETE after an ambiguous failure (5xx, timeout,
 * a reset after sending, a malformed 2xx): it cannot know whether the server acted. The
 * lifecycles can read the object back. A read that cannot tell (failed, malformed, or showing
 * neither the old nor the new state) never leads to a second send: the write fails with "may
 * have taken effect", and the next `pulumi up` starts from a read. A 429 never gets here (the
 * server did not act; the client's retry policy waits it out).
 *
 * No race with an in-flight write: its own timeout is waited out, not aborted (a request whose
 * connection is gone cannot be recalled). Each write is sent with
 * {@link WriteTiming.requestTimeoutMs}; after a failure that may leave it travelling (no answer,
 * or a gateway's 504) the read-back waits that timeout again plus a margin, so a first send has
 * had twice its timeout to land before a second leaves. After an answered failure (500/502/503,
 * a malformed 2xx) the request is over, and the short settle delay is enough.
 */
import { CloudPlatformError, ConnectionError, RequestAbortedError, ResponseFormatError, ServerError } from "../api/errors";
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
  /** The write in words, for log lines and errors: `the create of reaching_used_space ...`. */
  readonly what: string;
  /**
   * Sends the write; `attempt` is 1 for the first send. `options` carries the per-request
   * timeout the settle rule counts on: pass it to the API call.
   */
  send(attempt: number, options: RequestOptions): Promise<T>;
  /** Reads back whether the write took effect. */
  probe(): Promise<ProbeResult<T>>;
  /** A progress line for the person watching. */
  log(message: string): void;
  /** Ends the settle and resend waits at once (Ctrl-C, `customTimeouts`); nothing more is sent. */
  readonly signal?: AbortSignal | undefined;
}

/** How long to let a request settle, how often to send in all, and how to wait. */
export interface WriteTiming {
  /** Wait after an answered ambiguous failure (500/502/503, a malformed 2xx) before reading back. */
  readonly settleMs: number;
  /** The timeout each write is sent with; after a failure that may leave it in flight, the read-back waits this long again. */
  readonly requestTimeoutMs: number;
  /** Added to {@link requestTimeoutMs} before reading back after such a failure. */
  readonly inFlightMarginMs: number;
  /** Sends in total, the first included. */
  readonly maxAttempts: number;
  /** The wait, ended early by `signal` (tests inject one that records instead of sleeping). */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Production timing: each write times out after 30 s (the client's default); 3 s to settle after
 * an answered failure, 30 s + 5 s after one that may leave the request in flight; 5 sends at most.
 */
export const DEFAULT_WRITE_TIMING: WriteTiming = {
  settleMs: 3_000,
  requestTimeoutMs: 30_000,
  inFlightMarginMs: 5_000,
  maxAttempts: 5,
  sleep: (ms, signal) => sleep(ms, signal),
};

/**
 * The write failed ambiguously and reading back could not prove that it took no effect. The
 * message carries the original error and what the read saw; it never suggests sending again by
 * hand, because the next `pulumi up` reads first.
 */
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
 * True when a write failed without telling whether it took effect: no answer although the
 * request may have arrived, a 5xx (a gateway may answer 502 after the backend acted), or a 2xx
 * whose body could not be read.
 */
export function isAmbiguousWrite(err: unknown): err is CloudPlatformError {
  if (err instanceof ConnectionError) return err.mayHaveReachedServer;
  return err instanceof ServerError || err instanceof ResponseFormatError;
}

/**
 * True when the failed write may still be travelling or being processed: no answer came although
 * the request may have left (a timeout, a connection reset after sending), or a gateway answered
 * 504 (its backend timed out, and may still be working).
 */
export function mayStillBeInFlight(err: CloudPlatformError): boolean {
  if (err instanceof ConnectionError) return err.mayHaveReachedServer;
  return err instanceof ServerError && err.status === 504;
}

/** How long to wait after `failure` before reading back (see the module comment). */
export function settleDelayMs(failure: CloudPlatformError, timing: WriteTiming): number {
  return mayStillBeInFlight(failure) ? timing.requestTimeoutMs + timing.inFlightMarginMs : timing.settleMs;
}

/** Backoff before send `next` (2-based), after the settle delay: 0.5 s doubling, at most 4 s. */
export function resendDelayMs(next: number): number {
  return Math.min(4_000, 500 * 2 ** Math.max(0, next - 2));
}

/**
 * Sends `write`; on an ambiguous failure waits {@link settleDelayMs}, probes, and then: applied → returns
 * the probed value; absent → sends again (at most `maxAttempts` sends in all); conflict →
 * throws the probe's error; unclear or a failing probe → throws {@link WriteOutcomeUnknownError}.
 * A send stopped by `signal` throws {@link WriteOutcomeUnknownError} at once (it may have landed).
 * Any other failure (4xx, auth, 409) is thrown as it is, for the caller to judge.
 */
export async function reconcileWrite<T>(write: ReconciledWrite<T>, timing: WriteTiming = DEFAULT_WRITE_TIMING): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let failure: CloudPlatformError;
    try {
      return await write.send(attempt, { timeoutMs: timing.requestTimeoutMs });
    } catch (err) {
      if (err instanceof RequestAbortedError) {
        // Stopped (Ctrl-C, customTimeouts) while the write may have been on its way: there is
        // no time left to read back, and the caller must not take it for "nothing happened".
        throw new WriteOutcomeUnknownError(write.what, err, "the operation was stopped while the request was in flight");
      }
      if (!isAmbiguousWrite(err)) throw err;
      failure = err;
    }
    const settle = settleDelayMs(failure, timing);
    write.log(`${write.what} failed without a usable answer (${failure.message}); reading back in ${settle} ms to see whether it took effect`);
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
