/**
 * A 200 whose body stalls halfway (a gateway whose upstream stopped mid-answer), for every API
 * call the provider makes (the table is in malformedAnswers.ts): the client gives up after its
 * timeout with a ConnectionError that says so (for a write: it may have reached the server),
 * retries a read and never a write, and a one-off stall to a read is followed by the documented
 * answer.
 *
 * Each case waits out a real client timeout, so each has a canned API of its own and the cases
 * run concurrently. The timeout is long enough that the documented answer after a stall arrives
 * well within it on a machine busy with other work; the stalled body never arrives, so the
 * client gives up however slowly it runs. The attempts are the client's own count (the error's
 * `attempts`): on a starved machine the client's timer can fire before the server in the same
 * process has seen the request, so the server's count is only an upper bound.
 */
import { CloudPlatformError, ConnectionError } from "../../../provider/api";
import { expectNoSecret, newKey } from "./helpers";
import { MALFORMED_CASES, startCannedApi, type Call } from "./malformedAnswers";

/** The client's per-request timeout here. */
const TIMEOUT_MS = 5000;

const STALLS = MALFORMED_CASES.filter((c) => c.mode === "slowBody");

/** `call` against its own canned API, the first `times` answers stalling. */
async function stalled(call: Call, times: number) {
  const key = newKey();
  const api = await startCannedApi(key);
  try {
    const clean = await api.outcome(call, "good", 0);
    const r = await api.outcome(call, "slowBody", times, { timeoutMs: TIMEOUT_MS });
    return { key, clean, r };
  } finally {
    await api.close();
  }
}

test("every call has a stalling case", () => {
  expect(STALLS.map((c) => c.call.name)).toHaveLength(new Set(MALFORMED_CASES.map((c) => c.call.name)).size);
});

test.concurrent.each(STALLS.map((c) => [c.label, c.call] as const))(
  "a stalling body on every attempt: %s times out naming the call; a read is retried, a write never; no value comes back",
  async (_label, call) => {
    const { key, r } = await stalled(call, Number.MAX_SAFE_INTEGER);
    expect(r.value).toBeUndefined();
    const err = r.error;
    expect(err).toBeInstanceOf(CloudPlatformError);
    expect(err?.message).toContain(`${call.method} ${call.path}`);
    expectNoSecret(err, key);
    // No whole answer came: a timeout, which for a write leaves open whether it acted.
    expect(err instanceof ConnectionError && err.timedOut && err.mayHaveReachedServer).toBe(true);
    const attempts = call.method === "GET" ? 3 : 1;
    expect((err as ConnectionError).attempts).toBe(attempts);
    expect(r.attempts).toBeLessThanOrEqual(attempts);
  },
);

test.concurrent.each(STALLS.map((c) => [c.label, c.call] as const))(
  "a stalling body once: %s: a read is retried and the documented answer comes back; a write is not repeated",
  async (_label, call) => {
    const { clean, r } = await stalled(call, 1);
    if (call.method === "GET") {
      expect({ error: r.error?.message, value: r.value }).toEqual({ error: undefined, value: clean.value });
      expect(r.attempts).toBe(2);
    } else {
      expect(r.error).toBeInstanceOf(ConnectionError);
      expect((r.error as ConnectionError).attempts).toBe(1);
      expect(r.attempts).toBeLessThanOrEqual(1);
    }
  },
);
