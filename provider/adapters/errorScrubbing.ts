/**
 * The rule that no error leaving a provider carries the API key, in one place for both adapters.
 *
 * Why here and not in each adapter: an error may come from anywhere below (the client redacts
 * its own messages, but a lifecycle may echo an input, a bug may print an object), and the
 * dynamic provider and the plugin must scrub the same way, message and stack alike.
 */
import { redact } from "../api/redact";

/** Re-throws `err` with the secrets removed from message and stack; the original class is kept. */
export function scrubbed(err: unknown, secrets: () => readonly string[]): never {
  if (err instanceof Error) {
    err.message = redact(err.message, secrets());
    if (err.stack) err.stack = redact(err.stack, secrets());
    throw err;
  }
  throw new Error(redact(String(err), secrets()));
}

/** Runs one provider operation; whatever it throws leaves scrubbed of `secrets`. */
export type Guard = <T>(work: () => Promise<T>) => Promise<T>;

/** The guard of an adapter whose secrets are `secrets()` (read at the time of the error). */
export function guardOf(secrets: () => readonly string[]): Guard {
  return async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      return scrubbed(err, secrets);
    }
  };
}
