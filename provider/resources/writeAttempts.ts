/**
 * How often a write whose failure was ambiguous may be sent again, and how long to wait first.
 *
 * Why: the client never repeats a POST/PUT/DELETE on its own after an ambiguous failure (5xx,
 * connection reset after sending), because it cannot know whether the server acted. The
 * resource handlers can: they read the object back. When the read proves the write did not
 * take effect, sending it again is safe (and the server's own uniqueness rules, 409 on a second
 * upgrade or a second event, catch a late arrival of the first request). Without this, a
 * single 503 on a write fails the whole `pulumi up` (design "Retries": reconcile by reading).
 * A 429 never gets here: it means the server did not act, so the client's retry policy waits
 * it out for every method.
 */
import { ConnectionError, ResponseFormatError, ServerError, type CloudPlatformError } from "../api/errors";
import { sleep } from "../api/sleep";

/** Write attempts in total, the first included (the client's GET policy also makes 5). */
export const MAX_WRITE_ATTEMPTS = 5;

/** Longest wait between write attempts. */
const MAX_WAIT_MS = 30_000;

/** Backoff before write attempt `next` (2-based): 0.5 s doubling, at most 4 s. */
export function writeRetryDelayMs(next: number): number {
  return Math.min(4_000, 500 * 2 ** Math.max(0, next - 2));
}

/** Waits before write attempt `next` (a 429 never gets here: the client waits those out). */
export function waitBeforeWriteAttempt(next: number): Promise<void> {
  return sleep(Math.min(MAX_WAIT_MS, writeRetryDelayMs(next)));
}

/**
 * True when a write failed without telling whether it took effect: no answer although the
 * request may have arrived, a 5xx (a gateway may answer 502 after the backend acted), or a 2xx
 * whose body could not be read. Such a write is reconciled by reading, never sent again blindly.
 */
export function isAmbiguousWrite(err: unknown): err is CloudPlatformError {
  if (err instanceof ConnectionError) return err.mayHaveReachedServer;
  return err instanceof ServerError || err instanceof ResponseFormatError;
}
