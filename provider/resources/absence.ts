/**
 * The one place the lifecycles decide an object is absent, the most dangerous conclusion (a
 * dropped resource, a write sent again). Only a validated list lacking the object or a "not
 * found" in the product's own error shape proves it; anything else is "unclear", and nothing is written.
 */
import { AuthenticationError, CloudPlatformError, NotFoundError, PermissionDeniedError, ValidationError } from "../api/errors";
import { isRecord } from "../api/schema";
import { messageOf } from "../caughtErrors";

/** What a read showed about one object. */
export type Presence<T> =
  | { readonly state: "present"; readonly value: T }
  | { readonly state: "absent" }
  /** `reason` says what came, for the user; `cause` is the error of a failed read. */
  | { readonly state: "unclear"; readonly reason: string; readonly cause?: unknown };

/** A 404 with the product's own error body: a misrouted proxy answers 404 for objects that exist. */
export function isWellFormedNotFound(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError && (isRecord(err.body) || err.exceptionClass !== undefined) && err.serverMessage.trim() !== "";
}

/** A well-formed 404, or the 400 `{error: "event not found"}` the notification endpoints answer (they document no 404). */
export function isEventNotFoundAnswer(err: unknown): boolean {
  if (isWellFormedNotFound(err)) return true;
  return err instanceof ValidationError && isRecord(err.body) && /\bnot found\b/i.test(err.serverMessage);
}

/** One item that is not `identified` makes the answer unclear: it could be the one wanted. */
export async function findInList<T>(
  list: () => Promise<readonly T[]>,
  identified: (item: T) => boolean,
  isWanted: (item: T) => boolean,
  listCall?: string,
  answerProblem?: (items: readonly T[]) => string | undefined,
): Promise<Presence<T>> {
  let items: readonly T[];
  try {
    items = await list();
  } catch (err) {
    return { state: "unclear", reason: `the list could not be read: ${messageOf(err)}`, cause: err };
  }
  if (!Array.isArray(items)) return { state: "unclear", reason: "the list answer was not a list" };
  const problem = answerProblem?.(items);
  if (problem !== undefined) return { state: "unclear", reason: problem };
  const anonymous = items.filter((item) => !identified(item)).length;
  if (anonymous > 0) {
    const answer = listCall ? `the answer of ${listCall}` : "the list answer";
    return { state: "unclear", reason: `${answer} has ${anonymous} item(s) without their identifying fields` };
  }
  const found = items.find(isWanted);
  return found === undefined ? { state: "absent" } : { state: "present", value: found };
}

/** Reads one object by address; only a well-formed 404 is "absent". */
export async function readOne<T>(read: () => Promise<T>, wellFormed: (value: T) => string | undefined): Promise<Presence<T>> {
  let value: T;
  try {
    value = await read();
  } catch (err) {
    if (isWellFormedNotFound(err)) return { state: "absent" };
    return { state: "unclear", reason: `the read failed: ${messageOf(err)}`, cause: err };
  }
  const problem = wellFormed(value);
  return problem === undefined ? { state: "present", value } : { state: "unclear", reason: `the answer is malformed: ${problem}` };
}

/** A read refused for the key (401, 403) says nothing about the object. */
function keyRefused(err: unknown): boolean {
  return err instanceof AuthenticationError || err instanceof PermissionDeniedError;
}

/**
 * Nothing was concluded or written; the resource stays in the stack as recorded. A refused key
 * is said as such, not as a doubt about the object: the adapters put what to do before it.
 */
export class PresenceUnclearError extends CloudPlatformError {
  constructor(what: string, operation: string, reason: string, cause?: unknown) {
    const message = keyRefused(cause)
      ? `Nothing was concluded about ${what}: the API refused the key (${reason}); ${operation}.`
      : `Cannot tell whether ${what} exists (${reason}); ${operation}. A malformed or failed answer is never taken to mean that an object is absent. Run the command again once the API answers normally.`;
    super(message, cause === undefined ? undefined : { cause });
  }
}
