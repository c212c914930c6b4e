/**
 * Why a copy and never `err.message = ...`: a caught error may be shared (a failed event list is
 * the answer of every lifecycle call waiting on it; one cached lookup failure reaches several
 * lookups), so changing it in place changes it for everyone who holds it. The copy keeps the
 * class and fields (callers and the plugin's status codes branch on them) and carries the
 * original as its `cause`.
 */

/** The message of whatever was thrown (one definition, the API client's: layers above it share it). */
export { messageOf } from "./api/errors";

/** The copy's stack is `stack` when given, else the original's with the new message at its head. */
export function reworded<E extends Error>(err: E, message: string, stack?: string): E {
  const copy = Object.create(Object.getPrototypeOf(err) as object) as E;
  for (const key of Reflect.ownKeys(err)) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(err, key) as PropertyDescriptor);
  }
  const hidden = { writable: true, configurable: true, enumerable: false };
  Object.defineProperty(copy, "message", { ...hidden, value: message });
  const newStack = stack ?? (typeof err.stack === "string" ? err.stack.replace(err.message, message) : undefined);
  if (newStack !== undefined) Object.defineProperty(copy, "stack", { ...hidden, value: newStack });
  Object.defineProperty(copy, "cause", { ...hidden, value: err });
  return copy;
}
