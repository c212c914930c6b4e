/**
 * The retry policy: the decision after a failed attempt (nextStep) and its parts as pure
 * functions over tables, then each rule end to end against the simulator, with the simulator's
 * request log as the witness of what was sent. Waits are observed through an injected sleep,
 * never measured on the wall clock.
 */
import {
  ApiError,
  ConflictError,
  ConnectionError,
  createClient,
  DEFAULT_RETRY_POLICY,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestAbortedError,
  ResponseFormatError,
  ResponseTooLargeError,
  ServerError,
  ValidationError,
  AuthenticationError,
  CloudPlatformError,
  type HttpMethod,
  type RetryEvent,
  type RetryPolicy,
} from "../../../provider/api";
import type { AttemptFailure } from "../../../provider/api/attemptFailure";
import { createTransport } from "../../../provider/api/client";
import { backoffDelayMs, classifyFailure, nextStep, parseRetryAfter, resolveRetryPolicy, type AttemptState } from "../../../provider/api/retry";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { startSimulator } from "../../../simulator";
import { failed } from "./failureRecords";
import { admin, closeServer, freePort, listenOnLoopback, newKey, recordingSleep, rejectionOf, simulatorReports } from "./helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), readOnlyApiKey: newKey(), timeScale: 50 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
});

const logFor = (s: Sim, method: string, path: string) => s.requests().filter((r) => r.method === method && r.path === path);

describe("classifyFailure (pure)", () => {
  const p = DEFAULT_RETRY_POLICY;
  test.each([408, 429, 500, 502, 503, 504])("GET is retried on %i", (status) => {
    expect(classifyFailure("GET", failed.status("GET", status), p).retry).toBe(true);
  });
  test.each([400, 401, 403, 404, 409, 422])("status %i is never retried, whatever the method", (status) => {
    for (const m of ["GET", "POST", "PUT", "DELETE"] as const) expect(classifyFailure(m, failed.status(m, status), p).retry).toBe(false);
  });
  test.each(["POST", "PUT", "DELETE", "PATCH"] as const)("%s is not retried on 5xx or ambiguous network errors, but is on 429", (m) => {
    for (const status of [500, 503]) expect(classifyFailure(m, failed.status(m, status), p).retry).toBe(false);
    expect(classifyFailure(m, failed.status(m, 429), p).retry).toBe(true);
    for (const code of ["ECONNRESET", "ETIMEDOUT", "ECONNABORTED", "EPIPE", "UNKNOWN"]) expect(classifyFailure(m, failed.network(m, code), p).retry).toBe(false);
  });
  test.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"])("every method is retried on %s (never reached the server)", (code) => {
    for (const m of ["GET", "POST", "PUT", "DELETE"] as const) expect(classifyFailure(m, failed.network(m, code), p).retry).toBe(true);
  });
  test.each(["ECONNRESET", "ETIMEDOUT"])("GET is retried on any network error: %s", (code) => {
    expect(classifyFailure("GET", failed.network("GET", code), p).retry).toBe(true);
  });
  test("an override of the policy is honoured", () => {
    const noServer = resolveRetryPolicy({ retryServerErrors: false });
    expect(classifyFailure("GET", failed.status("GET", 503), noServer).retry).toBe(false);
    expect(classifyFailure("GET", failed.status("GET", 429), noServer).retry).toBe(true);
  });
});

type Expected =
  | { readonly wait: number; readonly reason: string }
  | { readonly stop: abstract new (...args: never[]) => Error; readonly attempts: number; readonly ends: string };

interface StepRow {
  readonly name: string;
  readonly failure: AttemptFailure;
  /** The failed attempt's number as the limit counts them (default 1), and ms since the first. */
  readonly at?: Partial<AttemptState>;
  readonly policy?: Partial<RetryPolicy>;
  readonly expected: Expected;
}

/** Default policy: 5 attempts, 60 s budget, 0.5 s doubling; random() = 0.5 means no jitter. */
const STEPS: readonly StepRow[] = [
  { name: "a GET's 503 waits the backoff", failure: failed.status("GET", 503), expected: { wait: 500, reason: "status 503" } },
  { name: "the backoff doubles with each counted failure", failure: failed.status("GET", 503), at: { attempt: 3 }, expected: { wait: 2000, reason: "status 503" } },
  { name: "a 503's Retry-After longer than the backoff is waited", failure: failed.status("GET", 503, 5000), expected: { wait: 5000, reason: "status 503" } },
  {
    name: "a 429 that paces us is waited as asked, for a write too",
    failure: failed.status("POST", 429, 2000),
    expected: { wait: 2000, reason: "status 429: rate limited, the request was not acted on" },
  },
  {
    name: "a 429 asking for no wait (Retry-After: 0) waits the backoff",
    failure: failed.status("GET", 429, 0),
    at: { attempt: 2 },
    expected: { wait: 1000, reason: "status 429: rate limited, the request was not acted on" },
  },
  { name: "a GET's reset connection waits", failure: failed.network("GET", "ECONNRESET"), expected: { wait: 500, reason: "ECONNRESET on an idempotent request" } },
  {
    name: "a write refused before it was sent waits",
    failure: failed.network("POST", "ECONNREFUSED"),
    expected: { wait: 500, reason: "ECONNREFUSED: the request never reached the server" },
  },
  { name: "a GET's malformed answer waits like a 5xx", failure: failed.format("GET"), expected: { wait: 500, reason: "a malformed answer" } },
  { name: "a write's 503 stops at once", failure: failed.status("POST", 503), expected: { stop: ServerError, attempts: 1, ends: "(503 ServerError): the server's words" } },
  {
    name: "a write's reset connection stops: it may have reached the server",
    failure: failed.network("PUT", "ECONNRESET"),
    expected: { stop: ConnectionError, attempts: 1, ends: "the request may have reached the server, so a write may have taken effect." },
  },
  { name: "a write's malformed answer stops", failure: failed.format("DELETE"), expected: { stop: ResponseFormatError, attempts: 1, ends: 'received text "<html>".' } },
  { name: "an answer over the size cap stops, for a GET too", failure: failed.format("GET", true), expected: { stop: ResponseTooLargeError, attempts: 1, ends: 'received text "<html>".' } },
  { name: "400 stops", failure: failed.status("GET", 400), expected: { stop: ValidationError, attempts: 1, ends: "the server's words" } },
  { name: "401 stops", failure: failed.status("GET", 401), expected: { stop: AuthenticationError, attempts: 1, ends: "`apiKey`." } },
  { name: "403 stops", failure: failed.status("GET", 403), expected: { stop: PermissionDeniedError, attempts: 1, ends: "whose role allows it." } },
  { name: "404 stops", failure: failed.status("GET", 404), expected: { stop: NotFoundError, attempts: 1, ends: "the server's words" } },
  { name: "409 stops", failure: failed.status("GET", 409), expected: { stop: ConflictError, attempts: 1, ends: "the server's words" } },
  { name: "422 stops", failure: failed.status("GET", 422), expected: { stop: ValidationError, attempts: 1, ends: "the server's words" } },
  { name: "a status the policy does not retry stops", failure: failed.status("GET", 405), expected: { stop: ApiError, attempts: 1, ends: "the server's words" } },
  { name: "an override can stop 5xx retries", failure: failed.status("GET", 503), policy: { retryServerErrors: false }, expected: { stop: ServerError, attempts: 1, ends: "the server's words" } },
  {
    name: "the attempt limit stops the last counted failure",
    failure: failed.status("GET", 503),
    at: { attempt: 5 },
    expected: { stop: ServerError, attempts: 5, ends: "the server's words Gave up after 5 attempts." },
  },
  {
    name: "the limit and the message read one count",
    failure: failed.network("GET", "ECONNRESET"),
    at: { attempt: 5 },
    expected: { stop: ConnectionError, attempts: 5, ends: "may have taken effect. Gave up after 5 attempts." },
  },
  {
    name: "a paced 429 in the last counted slot stops too",
    failure: failed.status("GET", 429, 2000),
    at: { attempt: 5 },
    expected: { stop: RateLimitError, attempts: 5, ends: "Gave up after 5 attempts." },
  },
  { name: "one attempt allowed: the first failure stops", failure: failed.status("GET", 503), policy: { maxAttempts: 1 }, expected: { stop: ServerError, attempts: 1, ends: "Gave up after 1 attempt." } },
  {
    name: "a malformed answer at the limit says the count once",
    failure: failed.format("GET"),
    at: { attempt: 3 },
    policy: { maxAttempts: 3 },
    expected: { stop: ResponseFormatError, attempts: 3, ends: 'received text "<html>". Gave up after 3 attempts.' },
  },
  {
    name: "a wait past the budget stops, naming the budget and the attempts",
    failure: failed.status("GET", 503),
    at: { attempt: 3, elapsedMs: 1_500 },
    policy: { budgetMs: 2_000 },
    expected: { stop: ServerError, attempts: 3, ends: "The retry budget of 2s is spent after 3 attempts." },
  },
  {
    name: "a network failure past the budget says the count once",
    failure: failed.network("GET", "ETIMEDOUT"),
    at: { attempt: 2, elapsedMs: 59_900 },
    expected: { stop: ConnectionError, attempts: 2, ends: "may have taken effect. The retry budget of 1m is spent after 2 attempts." },
  },
  {
    name: "a Retry-After beyond the remaining budget stops, naming both",
    failure: failed.status("GET", 429, 120_000),
    expected: { stop: RateLimitError, attempts: 1, ends: "The server asked to retry after 2m, beyond the remaining retry budget of 1m; not retried." },
  },
  {
    name: "a stop for a failure not retried, after earlier attempts, says their number once",
    failure: failed.network("POST", "ECONNRESET"),
    at: { attempt: 3 },
    expected: { stop: ConnectionError, attempts: 3, ends: "may have taken effect. (3 attempts)" },
  },
];

describe("nextStep: the decision after a failed attempt (pure)", () => {
  test.each(STEPS)("$name", ({ failure, at, policy, expected }) => {
    const resolved = resolveRetryPolicy(policy);
    const verdict = classifyFailure(failure.init.method as HttpMethod, failure, resolved);
    const step = nextStep({ failure, verdict }, { attempt: 1, elapsedMs: 0, ...at }, resolved, () => 0.5);
    if ("wait" in expected) {
      expect(step).toEqual({ action: "wait", delayMs: expected.wait, reason: expected.reason });
      return;
    }
    expect(step.action).toBe("stop");
    const error = step.action === "stop" ? step.error : undefined;
    expect(error).toBeInstanceOf(expected.stop);
    expect(error?.constructor).toBe(expected.stop);
    expect((error as { attempts?: number }).attempts).toBe(expected.attempts);
    expect(error?.message.slice(-expected.ends.length)).toBe(expected.ends);
    expect(error?.message.match(/attempts/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

});

describe("delays (pure)", () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];
  test("Retry-After as seconds, as an HTTP date, and Retry-After-Ms first", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(headers({ "retry-after": "7" }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(30_000);
    expect(parseRetryAfter(headers({ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(headers({ "retry-after-ms": "1500", "retry-after": "9" }), now)).toBe(1500);
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });
  test("exponential backoff, capped, with jitter bounds", () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 100, factor: 2, maxDelayMs: 1000, jitter: 0.5 });
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy, mid))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(200);
    expect(backoffDelayMs(3, policy, () => 1)).toBe(600);
  });
  test("a bad override fails at once", () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(CloudPlatformError);
    expect(() => resolveRetryPolicy({ jitter: 2 })).toThrow(CloudPlatformError);
  });
});

describe("through the client, on a loopback server of the test's own", () => {
  let server: http.Server;
  let url = "";
  let respond: (res: http.ServerResponse) => void = () => undefined;
  let served = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      served++;
      respond(res);
    });
    url = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    served = 0;
  });

  test.each([
    ["a server error", ServerError, (res: http.ServerResponse) => res.writeHead(503, { "content-type": "application/json" }).end('{"message":"down"}')],
    ["an answer that is not JSON", ResponseFormatError, (res: http.ServerResponse) => res.writeHead(200, { "content-type": "text/html" }).end("<html>a gateway</html>")],
    ["a connection reset before the answer", ConnectionError, (res: http.ServerResponse) => res.socket?.destroy()],
    ["a refused connection", ConnectionError, "refused"],
  ] as const)("a give-up after %s says how many attempts were made, once", async (_what, errorClass, answer) => {
    const baseUrl = answer === "refused" ? `http://127.0.0.1:${await freePort()}` : url;
    if (answer !== "refused") respond = answer;
    const c = createClient({ baseUrl, apiKey: newKey(), retry: { maxAttempts: 3 }, sleep: async () => undefined });
    const err = await rejectionOf(c.iam.clients.me());
    expect(err).toBeInstanceOf(errorClass);
    expect((err as ConnectionError).attempts).toBe(3);
    expect(err.message).toContain("Gave up after 3 attempts.");
    expect(err.message.match(/attempts/g)).toHaveLength(1);
  });

  test("429s that pace us are not attempts: the limit, the message, the error and the retry events count the same attempts", async () => {
    respond = (res) =>
      served <= 2 ? res.writeHead(429, { "retry-after": "1", "content-type": "application/json" }).end('{"message":"busy"}') : res.writeHead(503).end('{"message":"down"}');
    const events: RetryEvent[] = [];
    const c = createClient({ baseUrl: url, apiKey: newKey(), retry: { maxAttempts: 3 }, sleep: async () => undefined, onRetry: (e) => events.push(e) });
    const err = await rejectionOf(c.iam.clients.me());
    expect(err).toBeInstanceOf(ServerError);
    expect(served).toBe(5);
    expect((err as ServerError).attempts).toBe(3);
    expect(err.message).toMatch(/Gave up after 3 attempts\.$/);
    expect(events.map((e) => [e.status, e.attempt, e.usedAnAttempt])).toEqual([
      [429, 1, false],
      [429, 1, false],
      [503, 1, true],
      [503, 2, true],
    ]);
  });

  test("an error the client itself throws (not an answer) ends the call at once, redacted, and is no cancellation", async () => {
    const apiKey = newKey();
    respond = (res) => res.writeHead(200, { "content-type": "application/json" }).end("{}");
    const events: RetryEvent[] = [];
    const transport = createTransport({ baseUrl: url, apiKey, sleep: async () => undefined, onRetry: (e) => events.push(e) });
    const broken = z.unknown().transform((): never => {
      throw new Error(`a bug next to ${apiKey}`);
    });
    const err = await rejectionOf(transport.request({ method: "GET", path: "/iam/clients/me", response: broken }));
    expect(err).toBeInstanceOf(CloudPlatformError);
    expect(err).not.toBeInstanceOf(RequestAbortedError);
    expect(err.message).toBe("a bug next to [REDACTED]");
    expect({ served, events }).toEqual({ served: 1, events: [] });
  });
});

describe("against the simulator", () => {
  test("a burst of 429s with Retry-After longer than the attempt limit does not use up the attempts", async () => {
    const burst = DEFAULT_RETRY_POLICY.maxAttempts + 3;
    await admin(sim.url, "POST", "/faults", { burst429: { count: burst, retryAfterSeconds: 1 }, pathPrefix: "/dns" });
    const { sleep, waits } = recordingSleep();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    const status = await c.dns.delegationStatus("example.com");
    expect(status.zoneExists).toBe(true);
    expect(waits).toEqual(Array(burst).fill(1000));
    expect(logFor(sim, "GET", "/dns/v2/analyze/example.com/delegation-status")).toHaveLength(burst + 1);
  });

  test("a POST refused with 429 is sent again after Retry-After and acted on once", async () => {
    await admin(sim.url, "POST", "/faults", { burst429: { count: 2, retryAfterSeconds: 2 }, pathPrefix: "/storage" });
    const { sleep, waits } = recordingSleep();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    await c.storage.notifications.create({ name: "reaching_used_space", storageName: "paced", bytes: 5 });
    expect(waits).toEqual([2000, 2000]);
    expect(logFor(sim, "POST", "/storage/notifications/v1/event").map((r) => r.status)).toEqual([429, 429, 200]);
    expect(sim.state().storageEvents.filter((e) => e.storage_name === "paced")).toHaveLength(1);
  });

  test("a 429 with Retry-After waits at least that long, then succeeds", async () => {
    await admin(sim.url, "POST", "/faults", { burst429: { count: 2, retryAfterSeconds: 3 }, pathPrefix: "/dns" });
    const { sleep, waits } = recordingSleep();
    const events: RetryEvent[] = [];
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep, onRetry: (e) => events.push(e), retry: { baseDelayMs: 10 } });
    const status = await c.dns.delegationStatus("example.com");
    expect(status.zoneExists).toBe(true);
    expect(waits).toHaveLength(2);
    for (const w of waits) expect(w).toBeGreaterThanOrEqual(3000);
    expect(events.map((e) => e.status)).toEqual([429, 429]);
    expect(logFor(sim, "GET", "/dns/v2/analyze/example.com/delegation-status").map((r) => r.status)).toEqual([429, 429, 200]);
  });

  test("a GET is retried through injected 5xx and succeeds", async () => {
    await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/projects" });
    const { sleep, waits } = recordingSleep(async (_ms, call) => {
      if (call === 2) await admin(sim.url, "DELETE", "/faults");
    });
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    const page = await c.cloud.projects.list();
    expect(page.count).toBeGreaterThan(0);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(0);
    expect(logFor(sim, "GET", "/cloud/v1/projects").map((r) => r.status)).toEqual([503, 503, 200]);
  });

  test("a GET whose connection is reset is retried", async () => {
    await admin(sim.url, "POST", "/faults", { resetRate: 1, pathPrefix: "/iam" });
    const { sleep, waits } = recordingSleep(async () => {
      await admin(sim.url, "DELETE", "/faults");
    });
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    expect((await c.iam.clients.me()).id).toBe(7350925);
    expect(waits).toHaveLength(1);
  });

  test("a POST whose connection was reset after the server handled it is NOT sent twice", async () => {
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, pathPrefix: "/cloud/v2/k8s" });
    const { sleep, waits } = recordingSleep();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    const err = await rejectionOf(c.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2"));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).mayHaveReachedServer).toBe(true);
    expect(err.message).toContain("may have reached the server");
    expect(waits).toEqual([]);
    await admin(sim.url, "DELETE", "/faults");
    expect(logFor(sim, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade")).toHaveLength(1);
    // The server did act: the cluster is locked by the upgrade task.
    expect((await c.cloud.k8s.getCluster(1, 76, "prod-cluster")).taskId).toEqual(expect.any(String));
  });

  test("a POST answered 5xx is not repeated", async () => {
    await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/storage" });
    const { sleep, waits } = recordingSleep();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    const err = await rejectionOf(c.storage.notifications.create({ name: "reaching_used_space", bytes: 5 }));
    expect(err).toBeInstanceOf(ServerError);
    expect(waits).toEqual([]);
    expect(logFor(sim, "POST", "/storage/notifications/v1/event")).toHaveLength(1);
  });

  test("a POST that timed out is not repeated (the server may still act)", async () => {
    await admin(sim.url, "POST", "/faults", { latencyMs: 400, pathPrefix: "/storage" });
    const { sleep, waits } = recordingSleep();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep, timeoutMs: 50 });
    const err = await rejectionOf(c.storage.notifications.create({ name: "reaching_used_space", bytes: 5 }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).timedOut).toBe(true);
    expect((err as ConnectionError).mayHaveReachedServer).toBe(true);
    expect(waits).toEqual([]);
    // Once the simulator has answered everything it received, there is exactly one POST.
    const { requests } = await simulatorReports(sim.url, (r) => r.inFlight.length === 0 && r.requests.some((x) => x.method === "POST"));
    expect(requests.filter((r) => r.method === "POST")).toEqual([expect.objectContaining({ path: "/storage/notifications/v1/event", fault: "latency" })]);
  });

  test("a POST refused (server not up yet) is retried and sent exactly once", async () => {
    const port = await freePort();
    let late: Sim | undefined;
    const key = newKey();
    const { sleep, waits } = recordingSleep(async (_ms, call) => {
      if (call === 1) late = await startSimulator({ port, apiKey: key });
    });
    try {
      const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key, sleep });
      const created = await c.storage.notifications.create({ name: "reaching_used_requests", storageName: "s", count: 3 });
      expect(created.count).toBe(3);
      expect(waits).toHaveLength(1);
      expect(late && logFor(late, "POST", "/storage/notifications/v1/event")).toHaveLength(1);
    } finally {
      await late?.close();
    }
  });

  test.each([
    ["401", (c: ReturnType<typeof createClient>) => c.cloud.regions.list(), "GET", "/cloud/v1/regions", true],
    ["403", (c: ReturnType<typeof createClient>) => c.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2"), "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", "ro"],
    ["404", (c: ReturnType<typeof createClient>) => c.cloud.k8s.getCluster(1, 76, "ghost"), "GET", "/cloud/v2/k8s/clusters/1/76/ghost", false],
    ["422", (c: ReturnType<typeof createClient>) => c.waap.reseller.totals("requests", { from: "", to: "" }), "GET", "/waap/v1/prebilling/total/requests", false],
  ] as const)("%s is not retried", async (status, call, method, path, keyKind) => {
    const { sleep, waits } = recordingSleep();
    const apiKey = keyKind === true ? newKey() : keyKind === "ro" ? sim.readOnlyApiKey : sim.apiKey;
    const c = createClient({ baseUrl: sim.url, apiKey, sleep });
    await rejectionOf(call(c));
    expect(waits).toEqual([]);
    const log = logFor(sim, method, path);
    expect(log.map((r) => String(r.status))).toEqual([status]);
  });

  test("409 is not retried", async () => {
    const { sleep, waits } = recordingSleep();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep });
    await c.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2");
    expect(await rejectionOf(c.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2"))).toBeInstanceOf(ConflictError);
    expect(waits).toEqual([]);
    expect(logFor(sim, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade").map((r) => r.status)).toEqual([200, 409]);
  });

  /** A client on a fake clock that only its sleeps move, against failing region lists. */
  async function clockedClient(retry: Partial<RetryPolicy>) {
    await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/regions" });
    let clock = 0;
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
      clock += ms;
    };
    return { waits, client: createClient({ baseUrl: sim.url, apiKey: sim.apiKey, now: () => clock, random: () => 0.5, sleep, retry }) };
  }

  test("the total budget stops backoff retries, with a note", async () => {
    const { client, waits } = await clockedClient({ maxAttempts: 10, budgetMs: 2_000, baseDelayMs: 500, factor: 2 });
    const err = await rejectionOf(client.cloud.regions.list());
    expect(err).toBeInstanceOf(ServerError);
    expect(waits).toEqual([500, 1000]); // the next, 2000, would pass the 2 s budget
    expect(err.message).toContain("retry budget of 2s is spent after 3 attempts");
    expect(logFor(sim, "GET", "/cloud/v1/regions")).toHaveLength(3);
  });

  test("the budget runs on the client's clock only: p-retry's own clock (performance.now) ending it early would cut these retries", async () => {
    const { client, waits } = await clockedClient({ maxAttempts: 4, budgetMs: 60_000, baseDelayMs: 500, factor: 2 });
    // p-retry reads performance.now() and takes no clock; here it jumps an hour per reading.
    let real = 0;
    const spy = jest.spyOn(performance, "now").mockImplementation(() => (real += 3_600_000));
    try {
      const err = await rejectionOf(client.cloud.regions.list());
      expect(err).toBeInstanceOf(ServerError);
      expect(waits).toEqual([500, 1000, 2000]);
      expect(err.message).toContain("Gave up after 4 attempts.");
      expect(logFor(sim, "GET", "/cloud/v1/regions")).toHaveLength(4);
    } finally {
      spy.mockRestore();
    }
  });

  test("an abort stops a retry wait and is not retried", async () => {
    await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/projects" });
    const ac = new AbortController();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep: async () => ac.abort() });
    const err = await rejectionOf(c.cloud.projects.list({}, { signal: ac.signal }));
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(logFor(sim, "GET", "/cloud/v1/projects")).toHaveLength(1);
  });
});

describe("a client bound to an operation's signal (withSignal)", () => {
  test("the operation's abort stops a retry wait of a call given no signal of its own, and nothing is sent after it", async () => {
    await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/projects" });
    const operation = new AbortController();
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep: async () => operation.abort() }).withSignal(operation.signal);
    const err = await rejectionOf(c.cloud.projects.list());
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect(logFor(sim, "GET", "/cloud/v1/projects")).toHaveLength(1);
    expect(await rejectionOf(c.cloud.regions.list())).toBeInstanceOf(RequestAbortedError);
    expect(logFor(sim, "GET", "/cloud/v1/regions")).toHaveLength(0);
  });

  test("either the call's own signal or the operation's cancels; without an abort the bound client works as the plain one", async () => {
    const operation = new AbortController();
    const bound = createClient({ baseUrl: sim.url, apiKey: sim.apiKey }).withSignal(operation.signal);
    expect((await bound.cloud.regions.list()).count).toBeGreaterThan(0);
    const own = new AbortController();
    own.abort();
    expect(await rejectionOf(bound.cloud.regions.list({}, { signal: own.signal }))).toBeInstanceOf(RequestAbortedError);
    expect(operation.signal.aborted).toBe(false);
  });
});

describe("a server whose Retry-After asks for no wait", () => {
  // The simulator never sends Retry-After below 1 s (as the platform's rate limiter); another
  // server (a proxy, a misconfigured gateway) may send 0, and must not make the client spin.
  test("429 with Retry-After: 0 is no pacing: it uses up the attempts, waiting the backoff, instead of looping", async () => {
    let served = 0;
    const server = http.createServer((_req, res) => {
      served++;
      res.writeHead(429, { "Retry-After": "0", "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: "slow down" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    try {
      const { sleep, waits } = recordingSleep();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const c = createClient({ baseUrl: url, apiKey: newKey(), sleep });
      const err = await rejectionOf(c.cloud.projects.list());
      expect(err.message).toContain(`Gave up after ${DEFAULT_RETRY_POLICY.maxAttempts} attempts`);
      expect(err.message).toContain("slow down");
      expect(served).toBe(DEFAULT_RETRY_POLICY.maxAttempts);
      expect(waits).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts - 1);
      for (const w of waits) expect(w).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
