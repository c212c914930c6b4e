/**
 * The retry policy (p-retry under the transport) on jest's fake clock: the client's own default
 * sleep and clock, no injected ones, and no real waiting. Timers, Date and performance are fake;
 * the loopback server's sockets are real, so the test waits for its requests with setImmediate
 * turns (left real) and moves the clock by hand.
 */
import { createServer, type Server, type ServerResponse } from "http";
import { createClient, RateLimitError, RequestAbortedError, ServerError } from "../../../provider/api";
import { closeServer, listenOnLoopback, newKey, rejectionOf } from "./helpers";

let server: Server;
let baseUrl = "";
let respond: (res: ServerResponse, n: number) => void = () => undefined;
let served = 0;
/**
 * A server of its own for each test: the process shares one request pacer per API host, and a
 * 429's pause set on one test's fake clock must not hold the next test's requests.
 */
const ownBaseUrl = (): string => baseUrl;

beforeEach(async () => {
  served = 0;
  server = createServer((req, res) => {
    req.resume();
    served++;
    respond(res, served);
  });
  baseUrl = await listenOnLoopback(server);
  jest.useFakeTimers({ doNotFake: ["setImmediate", "nextTick", "queueMicrotask"] });
});
afterEach(async () => {
  jest.useRealTimers();
  await closeServer(server);
});

const ok = (res: ServerResponse) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ count: 0, results: [] }));
const status = (res: ServerResponse, code: number, headers: Record<string, string> = {}) =>
  res.writeHead(code, { "content-type": "application/json", ...headers }).end(JSON.stringify({ message: `status ${code}` }));

/** Let real I/O run until `cond` holds (the clock does not move). */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (cond()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

/** Settles `p` into a box, so the test can look without awaiting. */
function track<T>(p: Promise<T>): { done: boolean; value?: T; error?: unknown } {
  const box: { done: boolean; value?: T; error?: unknown } = { done: false };
  p.then(
    (value) => Object.assign(box, { done: true, value }),
    (error) => Object.assign(box, { done: true, error }),
  );
  return box;
}

test("a 503 with Retry-After: the next attempt comes exactly when the server asked, not before", async () => {
  respond = (res, n) => (n === 1 ? status(res, 503, { "retry-after": "5" }) : ok(res));
  const call = track(createClient({ baseUrl: ownBaseUrl(), apiKey: newKey() }).cloud.projects.list());
  await until(() => served === 1, "the first attempt");
  await jest.advanceTimersByTimeAsync(4_999);
  await until(() => true, "a turn");
  expect(served).toBe(1);
  await jest.advanceTimersByTimeAsync(1);
  await until(() => call.done, "the answer");
  expect(served).toBe(2);
  expect(call.error).toBeUndefined();
  expect(call.value).toEqual({ count: 0, results: [] });
});

test("429 pacing uses up no attempt: more paced 429s than attempts, then the answer", async () => {
  const pacedAnswers = 7; // more than the 5 attempts of the default policy
  respond = (res, n) => (n <= pacedAnswers ? status(res, 429, { "retry-after": "2" }) : ok(res));
  const call = track(createClient({ baseUrl: ownBaseUrl(), apiKey: newKey() }).cloud.projects.list());
  for (let n = 1; n <= pacedAnswers; n++) {
    await until(() => served === n, `attempt ${n}`);
    await jest.advanceTimersByTimeAsync(2_000);
  }
  await until(() => call.done, "the answer");
  expect(call.error).toBeUndefined();
  expect(served).toBe(pacedAnswers + 1);
});

test("the time budget ends backoff retries, with the note saying so", async () => {
  respond = (res) => status(res, 503);
  const client = createClient({ baseUrl: ownBaseUrl(), apiKey: newKey(), random: () => 0.5, retry: { maxAttempts: 10, budgetMs: 10_000, baseDelayMs: 1_000, factor: 2 } });
  const call = track(client.cloud.projects.list());
  // Waits of 1, 2 and 4 s; the next (8 s) would pass the 10 s budget.
  for (const [i, wait] of [1_000, 2_000, 4_000].entries()) {
    await until(() => served === i + 1, `attempt ${i + 1}`);
    await jest.advanceTimersByTimeAsync(wait - 1);
    await until(() => true, "a turn");
    expect(served).toBe(i + 1);
    await jest.advanceTimersByTimeAsync(1);
  }
  await until(() => call.done, "the give-up");
  expect(served).toBe(4);
  expect(call.error).toBeInstanceOf(ServerError);
  expect((call.error as Error).message).toContain("The retry budget of 10s is spent after 4 attempts.");
});

test("a Retry-After beyond the budget is not waited for", async () => {
  respond = (res) => status(res, 429, { "retry-after": "120" });
  const err = await rejectionOf(createClient({ baseUrl: ownBaseUrl(), apiKey: newKey(), retry: { budgetMs: 60_000 } }).dns.delegationStatus("example.com"));
  expect(err).toBeInstanceOf(RateLimitError);
  expect(err.message).toContain("The server asked to retry after 2m, beyond the remaining retry budget of 1m; not retried.");
  expect(served).toBe(1);
});

test("an abort ends a retry wait at once, without the clock moving", async () => {
  respond = (res) => status(res, 503, { "retry-after": "30" });
  const ac = new AbortController();
  const call = track(createClient({ baseUrl: ownBaseUrl(), apiKey: newKey() }).cloud.projects.list({}, { signal: ac.signal }));
  await until(() => served === 1, "the first attempt");
  await until(() => jest.getTimerCount() > 0, "the retry wait");
  ac.abort();
  await until(() => call.done, "the abort");
  expect(call.error).toBeInstanceOf(RequestAbortedError);
  expect(served).toBe(1);
});

test("a write that may have reached the server is never retried, whatever the clock does", async () => {
  respond = (res) => status(res, 503, { "retry-after": "1" });
  const call = track(createClient({ baseUrl: ownBaseUrl(), apiKey: newKey() }).cloud.k8s.upgrade(1, 76, "prod", "v1.31.2"));
  await until(() => call.done, "the answer");
  await jest.advanceTimersByTimeAsync(60_000);
  expect(served).toBe(1);
  expect(call.error).toBeInstanceOf(ServerError);
});
