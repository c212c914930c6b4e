/**
 * The shape every resource lifecycle implements, free of Pulumi: tested directly against the
 * simulator, and served by both adapters (`dynamic/adapter.ts`, `plugin/resourceAdapter.ts`).
 */
import type { CloudPlatformClient } from "../api";
import type { RunState } from "./runState";

/**
 * What a lifecycle step may use: an API client made from the configured settings, a log, and
 * the facts of the current run (one {@link RunState} per provider configuration).
 */
export interface LifecycleContext {
  /**
   * The API client, its requests cancelled by {@link signal}; creating it throws the
   * configuration error when settings are missing.
   */
  client(): CloudPlatformClient;
  /**
   * Aborts when the operation must stop: the plugin's `Cancel` (Ctrl-C in `pulumi up`) or its
   * `customTimeouts` ran out. Waits and sleeps end at once; the platform's task runs on.
   */
  readonly signal: AbortSignal;
  /**
   * A line for the person watching `pulumi up` (the adapter names the resource: a prefix on the
   * dynamic path, the resource's own row through the plugin). With
   * `status`, it is a passing progress report (the plugin shows it on the resource's row only,
   * replaced by the next); without, a line kept in the run's output; with `warning`, a kept
   * line marked as a warning.
   */
  log(message: string, options?: LogOptions): void;
  /** Facts of this run shared between lifecycle calls (never module globals). */
  readonly run: RunState;
}

/** How a log line is shown. */
export interface LogOptions {
  /** A passing progress report rather than a line to keep. */
  readonly status?: boolean;
  /** Something the person should act on that does not stop the operation (e.g. a check that could not be made). */
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
  /**
   * The inputs that differ, compared the way `changes` was (stored values of older states
   * completed with today's input defaults), for the engine's detailed diff on the plugin path.
   */
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
  /** The resource type name, e.g. `K8sClusterUpgrade`, used in messages. */
  readonly typeName: string;
  /**
   * Validates and normalizes inputs. `unknown` holds the input names whose values the engine
   * does not know yet (preview); a check must not call the API about those.
   */
  check(ctx: LifecycleContext, news: Record<string, unknown>, unknown: ReadonlySet<string>): Promise<CheckResult<I>>;
  diff(id: string, olds: O, news: I): Promise<DiffResult>;
  create(ctx: LifecycleContext, inputs: I): Promise<{ id: string; outs: O }>;
  read(ctx: LifecycleContext, id: string, outs: O): Promise<ReadResult<I, O> | undefined>;
  update(ctx: LifecycleContext, id: string, olds: O, news: I): Promise<O>;
  delete(ctx: LifecycleContext, id: string, outs: O): Promise<void>;
}
