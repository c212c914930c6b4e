/**
 * An abortable sleep shared by the retry loop and the task waiter.
 *
 * Why it resolves (not rejects) on abort: both callers check `signal.aborted` right after the
 * sleep and throw their own, more specific error (RequestAbortedError, TaskCancelledError).
 */

/** Wait `ms` milliseconds, or until `signal` aborts, whichever comes first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
