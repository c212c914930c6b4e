/**
 * getDelegationStatus past its rate-limit budget: the lookup's words come first, on a new error of
 * the same class (the client's error may be shared, so it is never changed), and the attempts are
 * said once, by the client.
 */
import { CloudPlatformError, RateLimitError, type CloudPlatformClient } from "../../../provider/api";
import { makeApiError } from "../../../provider/api/errors";
import { getDelegationStatusLookup } from "../../../provider/lookups/dns";
import type { LookupCall } from "../../../provider/lookups/runtime";
import { rejectionOf } from "../api/helpers";

const PATH = "/dns/v2/analyze/example.com/delegation-status";
const CLIENT_MESSAGE = `GET ${PATH} failed (429 RateLimitError): slow down The retry budget of 1m30s is spent after 31 attempts.`;

function callThrowing(err: unknown): LookupCall {
  const client = { dns: { delegationStatus: () => Promise.reject(err) } } as unknown as CloudPlatformClient;
  return { client, sub: () => Promise.reject(new Error("no sub-lookup was expected")), progress: () => undefined };
}

function spentBudget(): RateLimitError {
  const err = makeApiError({ method: "GET", path: PATH, status: 429, serverMessage: "slow down", attempts: 31, note: "The retry budget of 1m30s is spent after 31 attempts.", mayHaveActed: false });
  expect(err.message).toBe(CLIENT_MESSAGE);
  return err as RateLimitError;
}

test("a spent budget throws a new RateLimitError; the client's is left as it was and is its cause", async () => {
  const original = spentBudget();
  const thrown = await rejectionOf(getDelegationStatusLookup.execute(callThrowing(original), { domain: "example.com", rateLimitBudgetSeconds: 90 }));
  expect(thrown).not.toBe(original);
  expect(thrown).toBeInstanceOf(RateLimitError);
  expect(thrown.cause).toBe(original);
  expect(original.message).toBe(CLIENT_MESSAGE);
  expect({ attempts: (thrown as RateLimitError).attempts, status: (thrown as RateLimitError).status }).toEqual({ attempts: 31, status: 429 });
});

test("the message leads with what to do, names the budget through formatDuration, and says the attempts once", async () => {
  const thrown = await rejectionOf(getDelegationStatusLookup.execute(callThrowing(spentBudget()), { domain: "example.com", rateLimitBudgetSeconds: 90 }));
  expect(thrown.message).toBe(
    'the delegation-status endpoint is rate limited and still answered 429 for "example.com" within the rate-limit budget of 1m30s (rateLimitBudgetSeconds); ' +
      `raise rateLimitBudgetSeconds or make fewer delegation-status lookups. ${CLIENT_MESSAGE}`,
  );
  expect(thrown.message.match(/attempt/g)).toHaveLength(1);
});

test("another failure passes through as the same object", async () => {
  const other = new CloudPlatformError("GET failed otherwise");
  expect(await rejectionOf(getDelegationStatusLookup.execute(callThrowing(other), { domain: "example.com", rateLimitBudgetSeconds: 60 }))).toBe(other);
});
