/**
 * An error leaving either adapter carries no secret in its message or stack, and the caught
 * error (which others may hold: a shared event list's failure, a cached lookup's) is left as it
 * was: the adapter throws a copy of the same class with the original as its cause.
 */
import { NotFoundError } from "../../../provider/api/errors";
import { guardOf, scrubbed } from "../../../provider/adapters/errorScrubbing";

const KEY = "cpk_live_0123456789abcdef";

function refusalEchoingKey(): NotFoundError {
  return new NotFoundError({ method: "GET", path: "/cloud/v2/k8s/clusters/1/76/x", status: 404, serverMessage: `no cluster for token ${KEY}`, mayHaveActed: false });
}

test("the guard rejects with a copy without the key; the caught error keeps its message and stack", async () => {
  const original = refusalEchoingKey();
  const [message, stack] = [original.message, original.stack];
  const err = (await guardOf(() => [KEY])(() => Promise.reject(original)).catch((e: unknown) => e)) as NotFoundError;
  expect(err).toBeInstanceOf(NotFoundError);
  expect(err).not.toBe(original);
  expect(err.cause).toBe(original);
  expect(err.status).toBe(404);
  expect(err.message).toBe(message.replace(KEY, "[REDACTED]"));
  expect(err.stack).not.toContain(KEY);
  expect(err.stack?.split("\n")[0]).toBe(`NotFoundError: ${err.message}`);
  expect(original.message).toBe(message);
  expect(original.stack).toBe(stack);
});

test.each([
  { case: "an error without a secret is passed on as it is", secrets: [KEY], same: true },
  { case: "with no secret configured, nothing is copied", secrets: [], same: true },
  { case: "an error holding the key is copied", secrets: [KEY], same: false, thrown: () => refusalEchoingKey() },
])("$case", ({ secrets, same, thrown }) => {
  const original = thrown ? thrown() : new Error("the cluster is locked");
  expect(scrubbed(original, secrets) === original).toBe(same);
});

test("something thrown that is no Error becomes an Error without the key", () => {
  const err = scrubbed(`bad token ${KEY}`, [KEY]) as Error;
  expect(err).toBeInstanceOf(Error);
  expect(err.message).toBe("bad token [REDACTED]");
});
