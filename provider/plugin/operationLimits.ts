/**
 * What stops a plugin operation early: the engine's `Cancel` (Ctrl-C in `pulumi up`, or a run
 * stopped by another resource's failure) and the resource's `customTimeouts`, as one
 * AbortSignal per operation.
 *
 * Why here: the engine sends both only to a plugin (the dynamic-provider host answers `Cancel`
 * itself and never forwards `customTimeouts`). The signal reaches every wait and request
 * through the lifecycle context; when it aborts, whatever the lifecycle threw is replaced by an
 * error that says which limit stopped it and that the platform's task runs on, so the next
 * `pulumi up` waits for it instead of starting another.
 */
import { anySignal } from "../api/abort";
import { formatDuration } from "../api/duration";
import { CloudPlatformError } from "../api/errors";
import { messageOf } from "../caughtErrors";
import { isPartialResourceError, PartialResourceError } from "../resources/partial";

/** The `customTimeouts` field the engine applied to an operation, and its value. */
export interface CustomTimeout {
  /** `create`, `update` or `delete`: the field of `customTimeouts`. */
  readonly operation: "create" | "update" | "delete";
  /** Seconds, as the engine sends them; 0 means none was set. */
  readonly seconds: number;
}

class CancelReason extends Error {}

class DeadlineReason extends Error {}

/**
 * The operation stopped because the engine called `Cancel`. The call carries no reason: the
 * engine sends it on SIGINT/SIGTERM and to every plugin it shuts down at the end of a run, a run
 * stopped by another resource's failure included, so the message does not say Ctrl-C.
 */
export class OperationCancelledError extends CloudPlatformError {
  /** @internal */
  constructor(cause: string) {
    super(
      `cancelled by the engine (an interrupt, or another resource's failure that stopped the run): ${cause.replace(/\.+$/, "")}. ` +
        "Anything already started on the platform runs on; the next `pulumi up` finds it and waits for it instead of starting it again",
    );
  }
}

/** The operation outlived the resource's `customTimeouts`. */
export class CustomTimeoutError extends CloudPlatformError {
  /** @internal */
  constructor(limit: CustomTimeout, cause: string) {
    super(
      `customTimeouts.${limit.operation} (${formatDuration(limit.seconds * 1000)}) ran out before the ${limit.operation} finished: ${cause.replace(/\.+$/, "")}. ` +
        "Anything already started on the platform runs on; the next `pulumi up` finds it and waits for it instead of starting it again",
    );
  }
}

/** The message of `err` without a closing full stop (the limit's own sentence follows it). */
function unstoppedMessageOf(err: unknown): string {
  return messageOf(err).replace(/\.\s*$/, "");
}

/**
 * How long an aborted operation may take to end by itself (its own error names the task it
 * waited for) before the answer goes out without it.
 */
const GRACE_MS = 1_000;

/**
 * The longest delay `setTimeout` keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at
 * once. A `customTimeouts` beyond it bounds nothing a run could reach, so it sets no timer.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The limits of one plugin process: one `Cancel` for all its operations. */
export class OperationLimits {
  private readonly cancelled = new AbortController();

  /** Aborts every operation in flight, and any started later (the engine is shutting down). */
  cancel(): void {
    this.cancelled.abort(new CancelReason("cancelled"));
  }

  /**
   * Runs `work` with a signal that aborts on `Cancel` or when `timeout` (if set) runs out. The
   * answer comes at most {@link GRACE_MS} after the abort even if some part of `work` does not
   * listen (it then finds every later request cancelled).
   */
  async run<T>(timeout: CustomTimeout | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = new AbortController();
    const ms = timeout ? timeout.seconds * 1000 : 0;
    const timer = ms > 0 && ms <= MAX_TIMER_MS ? setTimeout(() => deadline.abort(new DeadlineReason("deadline")), ms) : undefined;
    const signal = anySignal([this.cancelled.signal, deadline.signal]);
    let stop: (() => void) | undefined;
    let grace: NodeJS.Timeout | undefined;
    const stopped = new Promise<never>((_, reject) => {
      stop = () => {
        grace = setTimeout(() => reject(signal.reason), GRACE_MS);
      };
      signal.addEventListener("abort", stop, { once: true });
    });
    stopped.catch(() => undefined);
    try {
      if (signal.aborted) throw signal.reason;
      return await Promise.race([work(signal), stopped]);
    } catch (err) {
      if (!signal.aborted) throw err;
      const cause = err instanceof CancelReason || err instanceof DeadlineReason ? "stopped while waiting" : unstoppedMessageOf(err);
      const limit = signal.reason instanceof DeadlineReason && timeout ? new CustomTimeoutError(timeout, cause) : new OperationCancelledError(cause);
      // Partial state stays partial: the platform acted, so the stack must still record the object.
      if (isPartialResourceError(err)) throw new PartialResourceError(limit.message, err.id, err.properties, [limit.message], limit);
      throw limit;
    } finally {
      clearTimeout(timer);
      clearTimeout(grace);
      if (stop) signal.removeEventListener("abort", stop);
    }
  }
}
