/**
 * Lifecycle contexts for tests that call lifecycles directly: one fresh RunState per context
 * unless a test shares one on purpose (several calls of one `pulumi up`).
 */
import type { CloudPlatformClient } from "../../../provider/api";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import { RunState, type RunOptions } from "../../../provider/resources/runState";

/** A run whose writes settle for 20 ms instead of seconds (the rule is the same). */
export function quickRun(options: RunOptions = {}): RunState {
  return new RunState({ ...options, writeTiming: { settleMs: 20, ...options.writeTiming } });
}

/** A context over `client`, logging into `log`, in `run` (a new quick run by default), never aborted. */
export function contextOf(client: CloudPlatformClient, log: (line: string) => void = () => undefined, run: RunState = quickRun()): LifecycleContext {
  return { client: () => client, log, run, signal: new AbortController().signal };
}
