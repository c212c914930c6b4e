/**
 * The rule that no error leaving a provider carries the API key, in one place for both adapters.
 *
 * Why here and not in each adapter: an error may come from anywhere below (the client redacts
 * its own messages, but a lifecycle may echo an input, a bug may print an object), and the
 * dynamic provider and the plugin must scrub the same way, message and stack alike.
 */
import { redact } from "../api/redact";
import { reworded } from "../caughtErrors";

/**
 * `err` without the secrets in its message and stack: a copy of the same class (the original as
 * its cause) when either held one, else `err` itself.
 */
export function scrubbed(err: unknown, secrets: readonly string[]): unknown {
  if (!(err instanceof Error)) return new Error(redact(String(err), secrets));
  const message = redact(err.message, secrets);
  const stack = err.stack === undefined ? undefined : redact(err.stack, secrets);
  return message === err.message && stack === err.stack ? err : reworded(err, message, stack);
}

/** Runs one provider operation; whatever it throws leaves scrubbed of `secrets`. */
export type Guard = <T>(work: () => Promise<T>) => Promise<T>;

/** The guard of an adapter whose secrets are `secrets()` (read at the time of the error). */
export function guardOf(secrets: () => readonly string[]): Guard {
  return async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw scrubbed(err, secrets());
    }
  };
}
