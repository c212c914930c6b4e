/**
 * Reading and rewording an error a `catch` received, for every layer above the API client.
 *
 * Why a reworded copy and not `err.message += ...`: a caught error may be shared (a failed event
 * list is the answer of every lifecycle call waiting on it; a task timeout goes on to the
 * engine), so changing it in place changes it for everyone who holds it. The copy keeps the
 * class and fields (callers and the plugin's status codes branch on them) and carries the
 * original as its `cause`.
 */

/** The message of whatever was thrown (one definition, the API client's: layers above it share it). */
export { messageOf } from "./api/errors";

/**
 * A copy of `err` (same class, same fields) whose message is `message`, with `err` as its
 * `cause`; its stack is the original's, with the new message at its head.
 */
export function reworded<E extends Error>(err: E, message: string): E {
  const copy = Object.create(Object.getPrototypeOf(err) as object) as E;
  for (const key of Reflect.ownKeys(err)) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(err, key) as PropertyDescriptor);
  }
  const hidden = { writable: true, configurable: true, enumerable: false };
  Object.defineProperty(copy, "message", { ...hidden, value: message });
  if (typeof err.stack === "string") Object.defineProperty(copy, "stack", { ...hidden, value: err.stack.replace(err.message, message) });
  Object.defineProperty(copy, "cause", { ...hidden, value: err });
  return copy;
}
