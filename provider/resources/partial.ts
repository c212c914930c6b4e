/**
 * Partial state: the platform acted, and a later step of the same create or update failed.
 *
 * Why an error that carries the resource: a create whose POST landed (or may have landed) and
 * whose uuid could then not be found, or an upgrade whose task started and whose read-back
 * failed, leave an object on the platform. Failing with a plain error would make the engine
 * forget it: the event becomes an orphan that the next `up` meets as a stranger, and the stack
 * records an older cluster version than the one running. With this error the adapters report
 * "exists, but the operation failed" (`ErrorResourceInitFailed` on the plugin path, an error
 * with `id` and `properties` on the dynamic path, which `@pulumi/pulumi`'s dynamic provider
 * host packs into the same detail), so the engine records the resource with its id and the
 * properties known so far, marks it as failed to initialise, and runs an update of it on the
 * next `up`, which reads the platform first and finishes the job.
 *
 * Free of Pulumi: the lifecycles throw it; only the adapters know how the engine wants it.
 */
import { CloudPlatformError } from "../api/errors";

/** The platform acted and a later step failed; `id` and `properties` are what the stack must record. */
export class PartialResourceError extends CloudPlatformError {
  /** The resource id to record (the object's, or a provisional one its lifecycle resolves later). */
  readonly id: string;
  /** The outputs to record: what is known to hold on the platform now. */
  readonly properties: Record<string, unknown>;
  /** Why the operation did not complete, one line each (the engine shows them). */
  readonly reasons: string[];

  /**
   * @param cause the failure of the later step (kept as `cause`, so callers can still tell a
   *   timeout from a failed read).
   */
  constructor(message: string, id: string, properties: object, reasons: readonly string[] = [message], cause?: unknown) {
    super(message);
    if (cause !== undefined) this.cause = cause;
    this.id = id;
    this.properties = { ...(properties as Record<string, unknown>) };
    this.reasons = [...reasons];
  }
}

/** True for a {@link PartialResourceError} (also one that crossed a module boundary as a plain object). */
export function isPartialResourceError(err: unknown): err is PartialResourceError {
  if (err instanceof PartialResourceError) return true;
  if (!(err instanceof Error)) return false;
  const e = err as Partial<PartialResourceError>;
  return err.name === "PartialResourceError" && typeof e.id === "string" && e.id !== "" && typeof e.properties === "object" && e.properties !== null;
}
