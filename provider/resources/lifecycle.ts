/**
 * The shape every resource lifecycle implements, free of Pulumi: tested directly against the
 * simulator, and served by both adapters (`dynamic/adapter.ts`, `plugin/resourceAdapter.ts`).
 */
import type { CloudPlatformClient } from "../api";
import type { RunState } from "./runState";

/** What a lifecycle step may use; one {@link RunState} per provider configuration. */
export interface LifecycleContext {
  /** Cancelled by {@link signal}; throws the configuration error when settings are missing. */
  client(): CloudPlatformClient;
  /** The plugin's `Cancel` or `customTimeouts`; waits end at once, the platform's task runs on. */
  readonly signal: AbortSignal;
  /** A line for the person watching `pulumi up`; the adapter names the resource. */
  log(message: string, options?: LogOptions): void;
  /** Shared between lifecycle calls (never module globals). */
  readonly run: RunState;
}

/** How a log line is shown. */
export interface LogOptions {
  /** A passing progress report, replaced by the next, rather than a line to keep. */
  readonly status?: boolean;
  /** To act on, without stopping the operation (e.g. a check that could not be made). */
  readonly warning?: boolean;
}

/** One input problem found by `check`; `property` is the input name as users write it. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Result of `check`: the normalized inputs or the problems. */
export interface CheckResult<I> {
  inputs: I;
  failures: CheckFailure[];
}

/** Result of `diff`. */
export interface DiffResult {
  changes: boolean;
  replaces?: string[];
  /** Compared as `changes` was (older states with today's defaults), for the plugin's detailed diff. */
  diffs?: string[];
  deleteBeforeReplace?: boolean;
}

/** Result of `read`: undefined means the object is gone. */
export interface ReadResult<I, O> {
  id: string;
  outs: O;
  inputs: I;
}

/** The lifecycle of one resource type. */
export interface ResourceLifecycle<I, O> {
  /** E.g. `K8sClusterUpgrade`, used in messages. */
  readonly typeName: string;
  /** `unknown`: inputs the engine does not know yet (preview); no API call may be made about those. */
  check(ctx: LifecycleContext, news: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<CheckResult<I>>;
  diff(id: string, olds: O, news: I): Promise<DiffResult>;
  create(ctx: LifecycleContext, inputs: I): Promise<{ id: string; outs: O }>;
  read(ctx: LifecycleContext, id: string, outs: O): Promise<ReadResult<I, O> | undefined>;
  update(ctx: LifecycleContext, id: string, olds: O, news: I): Promise<O>;
  delete(ctx: LifecycleContext, id: string, outs: O): Promise<void>;
}
