/**
 * What counts as "absent": the one place the lifecycles decide that an object is not there.
 *
 * "Absent" is the most dangerous conclusion a provider draws: a `read` saying "gone" drops the
 * resource (the object lives on, unmanaged), a probe saying "absent" leads to a write being sent
 * (again), a delete probe saying so reports a delete that may not have happened. So it is
 * concluded from two well-formed answers only: a validated list, each item carrying its
 * identifying fields, that lacks the object ({@link findInList}); or a "not found" in the
 * product's own error shape ({@link isWellFormedNotFound}, {@link isEventNotFoundAnswer}; a
 * proxy's 404 page proves nothing). Anything else is "unclear": no write follows, and the caller
 * fails keeping the resource in the stack ({@link PresenceUnclearError}).
 */
import { AuthenticationError, CloudPlatformError, NotFoundError, PermissionDeniedError, ValidationError } from "../api/errors";
import { isRecord } from "../api/schema";
import { messageOf } from "../caughtErrors";

/** What a read showed about one object. */
export type Presence<T> =
  /** The object is there. */
  | { readonly state: "present"; readonly value: T }
  /** A well-formed answer proves it is not there. */
  | { readonly state: "absent" }
  /** The answer cannot tell; `reason` says what came, for the user; `cause` is the error of a failed read. */
  | { readonly state: "unclear"; readonly reason: string; readonly cause?: unknown };

/**
 * True for a 404 that carries the product's own error body (an object with the server's
 * message). Why not every 404: a gateway or a misrouted proxy answers 404 with an HTML page for
 * objects that exist; only the API itself can say that an object does not.
 */
export function isWellFormedNotFound(err: unknown): err is NotFoundError {
  return err instanceof NotFoundError && (isRecord(err.body) || err.exceptionClass !== undefined) && err.serverMessage.trim() !== "";
}

/**
 * True when the storage API says the addressed event does not exist: a well-formed 404, or the
 * 400 `{error: "event not found"}` the notification endpoints answer (they document no 404).
 */
export function isEventNotFoundAnswer(err: unknown): boolean {
  if (isWellFormedNotFound(err)) return true;
  return err instanceof ValidationError && isRecord(err.body) && /\bnot found\b/i.test(err.serverMessage);
}

/**
 * Looks for the item `isWanted` picks in a list read. One item that is not `identified` (an
 * event without its uuid and name) makes the answer unclear: it could be the one wanted. So does
 * a failed read and a list `answerProblem` finds wanting (an event list answered `{}`);
 * `listCall` (`GET /path`) names the answer in the reason.
 */
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

/**
 * Reads one object by address. A well-formed 404 is "absent"; the object read but failing
 * `wellFormed` (say, a cluster without a version) is unclear; any other failure is unclear.
 */
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

/** Whether the API refused the key (401, 403): a read it refused says nothing about the object. */
function keyRefused(err: unknown): boolean {
  return err instanceof AuthenticationError || err instanceof PermissionDeniedError;
}

/**
 * A read could not tell whether the object exists, so nothing was concluded: the resource stays
 * in the stack as recorded and nothing was written. The message names the object, what came and
 * that running the command again once the API answers normally is safe; when the API refused
 * the key, what came already says what to do about the key, and `cause` is that refusal (the
 * adapters reword its advice once they know which key was used).
 */
export class PresenceUnclearError extends CloudPlatformError {
  constructor(what: string, operation: string, reason: string, cause?: unknown) {
    const tail = keyRefused(cause)
      ? "The API refused the key, so nothing was concluded."
      : "A malformed or failed answer is never taken to mean that an object is absent. Run the command again once the API answers normally.";
    super(`Cannot tell whether ${what} exists (${reason}); ${operation}. ${tail}`, cause === undefined ? undefined : { cause });
  }
}
