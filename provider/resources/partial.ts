/**
 * Partial state: the platform acted, and a later step of the same create or update failed.
 *
 * Why an error that carries the resource: a plain error makes the engine forget the object the
 * platform holds (an orphaned event, a stack recording an older cluster version). The adapters
 * report this one as "exists, but failed to initialise" (`ErrorResourceInitFailed`), so the
 * engine records the id and properties and runs an update on the next `up`, which finishes the job.
 */
import { CloudPlatformError } from "../api/errors";

/** `id` and `properties` are what the stack must record. */
export class PartialResourceError extends CloudPlatformError {
  /** The resource id to record (the object's, or a provisional one its lifecycle resolves later). */
  readonly id: string;
  /** The outputs to record: what is known to hold on the platform now. */
  readonly properties: Record<string, unknown>;
  /** Why the operation did not complete, one line each (the engine shows them). */
  readonly reasons: string[];

  /** @param cause the failure of the later step (callers tell a timeout from a failed read by it). */
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
