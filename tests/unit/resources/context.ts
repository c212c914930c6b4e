/**
 * Lifecycle contexts for tests that call lifecycles directly: one fresh RunState per context
 * unless a test shares one on purpose (several calls of one `pulumi up`).
 */
import type { CloudPlatformClient } from "../../../provider/api";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import { RunState, type RunOptions } from "../../../provider/resources/runState";

/**
 * Timing of test runs: writes settle for 20 ms instead of seconds, and are sent with a 1.5 s
 * timeout (against a local simulator), so waiting one out after a reset takes 1.55 s, not 35 s.
 * The rule is the same.
 */
export const QUICK_WRITE_TIMING = { settleMs: 20, requestTimeoutMs: 1_500, inFlightMarginMs: 50 } as const;

/** A run with {@link QUICK_WRITE_TIMING}. */
export function quickRun(options: RunOptions = {}): RunState {
  return new RunState({ ...options, writeTiming: { ...QUICK_WRITE_TIMING, ...options.writeTiming } });
}

/** A context over `client`, logging into `log`, in `run` (a new quick run by default), never aborted. */
export function contextOf(client: CloudPlatformClient, log: (line: string) => void = () => undefined, run: RunState = quickRun()): LifecycleContext {
  return { client: () => client, log, run, signal: new AbortController().signal };
}
