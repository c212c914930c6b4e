/**
 * How often a write whose failure was ambiguous may be sent again, and how long to wait first.
 *
 * Why: the client never repeats a POST/PUT/DELETE on its own after an ambiguous failure (5xx,
 * connection reset after sending), because it cannot know whether the server acted. The
 * resource handlers can: they read the object back. When the read proves the write did not
 * take effect, sending it again is safe (and the server's own uniqueness rules, 409 on a second
 * upgrade or a second event, catch a late arrival of the first request). Without this, a
 * single 503 on a write fails the whole `pulumi up` (design "Retries": reconcile by reading).
 * A 429 on a write is handled the same way, after the wait the server asked for.
 */
import { RateLimitError } from "../api/errors";
import { sleep } from "../api/sleep";

/** Write attempts in total, the first included (the client's GET policy also makes 5). */
export const MAX_WRITE_ATTEMPTS = 5;

/** Longest wait between write attempts, whatever a Retry-After asks. */
const MAX_WAIT_MS = 30_000;

/** Backoff before write attempt `next` (2-based): 0.5 s doubling, at most 4 s. */
export function writeRetryDelayMs(next: number): number {
  return Math.min(4_000, 500 * 2 ** Math.max(0, next - 2));
}

/** A write refused with 429: the server did not act on it; it may be sent again after the wait. */
export function isRateLimited(err: unknown): err is RateLimitError {
  return err instanceof RateLimitError;
}

/** Waits before write attempt `next`, at least as long as a 429's Retry-After asked. */
export function waitBeforeWriteAttempt(next: number, err?: unknown): Promise<void> {
  const asked = isRateLimited(err) ? err.retryAfterMs ?? 0 : 0;
  return sleep(Math.min(MAX_WAIT_MS, Math.max(writeRetryDelayMs(next), asked)));
}
