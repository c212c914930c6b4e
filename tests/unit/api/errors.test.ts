/**
 * Every error class, produced by the real simulator: status mapping, the server's own words in
 * the message, request ids, field details, and the key never appearing anywhere in an error.
 */
import {
  ApiError,
  AuthenticationError,
  CloudPlatformError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  createClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
  type CloudPlatformClient,
} from "../../../provider/api";
import { startSimulator } from "../../../simulator";
import { admin, expectNoSecret, freePort, newKey, recordingSleep, rejectionOf } from "./helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;
let client: CloudPlatformClient;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), readOnlyApiKey: newKey(), timeScale: 50 });
  client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
});

const logFor = (path: string) => sim.requests().filter((r) => r.path === path);

describe("401 AuthenticationError in every product's shape", () => {
  const wrongKey = newKey();
  let bad: CloudPlatformClient;
  beforeAll(() => {
    bad = createClient({ baseUrl: sim.url, apiKey: wrongKey, retry: { maxAttempts: 3 }, sleep: async () => {} });
  });

  test.each([
    ["cloud", () => bad.cloud.projects.list(), "GET /cloud/v1/projects", "Given token not valid for any token type"],
    ["iam", () => bad.iam.clients.me(), "GET /iam/clients/me", "Given token not valid for any token type"],
    ["storage", () => bad.storage.notifications.list(), "GET /storage/notifications/v1/events", "Auth token is invalid"],
    ["waap", () => bad.waap.reseller.ping(), "GET /waap/ping", "Auth token is missing or invalid"],
    ["dns", () => bad.dns.delegationStatus("example.com"), "GET /dns/v2/analyze/example.com/delegation-status", "Auth token is invalid"],
    ["streaming", () => bad.streaming.aiTasks.list(), "GET /streaming/ai/tasks", "Auth token is invalid"],
  ])("%s", async (_product, call, operation, serverWords) => {
    const err = await rejectionOf(call());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toBeInstanceOf(CloudPlatformError);
    expect(err.message).toContain(`${operation} failed (401 AuthenticationError): ${serverWords}`);
    expect(err.message).toContain("set it with the client option `apiKey`");
    expect((err as ApiError).status).toBe(401);
    expectNoSecret(err, wrongKey);
    // 401 is never retried.
    const path = operation.split(" ")[1] as string;
    expect(logFor(path)).toHaveLength(1);
  });
});

test("403 PermissionDeniedError for a read-only key on a write", async () => {
  const ro = createClient({ baseUrl: sim.url, apiKey: sim.readOnlyApiKey });
  const err = await rejectionOf(ro.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2"));
  expect(err).toBeInstanceOf(PermissionDeniedError);
  expect(err.message).toContain("POST /cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade failed (403 PermissionDeniedError): Permission denied");
  expect(err.message).toContain("lacks permission");
  expectNoSecret(err, sim.readOnlyApiKey);
  const err2 = await rejectionOf(ro.storage.notifications.create({ name: "reaching_used_space", bytes: 1 }));
  expect(err2).toBeInstanceOf(PermissionDeniedError);
  expect(err2.message).toContain("(403 PermissionDeniedError): Permission denied");
});

test("404 NotFoundError carries the cloud message, exception class and request id", async () => {
  const err = await rejectionOf(client.cloud.k8s.getCluster(1, 76, "no-such-cluster"));
  expect(err).toBeInstanceOf(NotFoundError);
  const e = err as NotFoundError;
  const logged = logFor("/cloud/v2/k8s/clusters/1/76/no-such-cluster")[0];
  expect(logged?.status).toBe(404);
  expect(e.requestId).toBe(logged?.requestId);
  expect(e.exceptionClass).toBe("NotFoundError");
  expect(e.serverMessage).toContain("no-such-cluster");
  expect(e.message).toBe(`GET /cloud/v2/k8s/clusters/1/76/no-such-cluster failed (404 NotFoundError): ${e.serverMessage} [request id ${logged?.requestId}]`);
});

test("400 ValidationError names the permitted versions (the server's words)", async () => {
  const err = await rejectionOf(client.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.32.1"));
  expect(err).toBeInstanceOf(ValidationError);
  expect(err.message).toMatch(/^POST \/cloud\/v2\/k8s\/clusters\/1\/76\/prod-cluster\/upgrade failed \(400 ValidationError\): .*v1\.31\.2.* \[request id [\w-]+\]$/);
  expect((err as ValidationError).exceptionClass).toBe("ValidationError");
});

test("409 ConflictError for a duplicate event (storage `error`) and a second upgrade (cloud `message`)", async () => {
  const event = { name: "reaching_used_space", storageName: "media", bytes: 10 } as const;
  await client.storage.notifications.create(event);
  const dup = await rejectionOf(client.storage.notifications.create(event));
  expect(dup).toBeInstanceOf(ConflictError);
  const serverWords = (dup as ConflictError).serverMessage;
  expect(serverWords.length).toBeGreaterThan(0);
  expect(dup.message).toContain(`POST /storage/notifications/v1/event failed (409 ConflictError): ${serverWords}`);

  await client.cloud.k8s.upgrade(1, 76, "demo-cluster", "v1.31.2");
  const second = await rejectionOf(client.cloud.k8s.upgrade(1, 76, "demo-cluster", "v1.31.2"));
  expect(second).toBeInstanceOf(ConflictError);
  expect((second as ConflictError).exceptionClass).toBe("ConflictError");
  expect(second.message).toContain(`(409 ConflictError): ${(second as ConflictError).serverMessage}`);
});

test("422 ValidationError lists each problem+json errors[].loc and detail", async () => {
  const err = await rejectionOf(client.waap.reseller.totals("requests", { from: "", to: "", limit: 500 }));
  expect(err).toBeInstanceOf(ValidationError);
  const e = err as ValidationError;
  expect(e.status).toBe(422);
  expect(e.errors).toEqual(
    expect.arrayContaining([
      { loc: ["query", "from"], detail: "Field required" },
      { loc: ["query", "to"], detail: "Field required" },
    ]),
  );
  expect(e.message).toContain("(422 ValidationError): One or more fields have validation errors.");
  expect(e.message).toContain("query.from: Field required");
  expect(e.message).toContain("query.limit: Input should be less than or equal to 100");
});

test("reseller 400 and 404 problem+json use `detail`", async () => {
  const bad = await rejectionOf(client.waap.reseller.totals("requests", { from: "2026-10-01", to: "2026-09-01" }));
  expect(bad).toBeInstanceOf(ValidationError);
  expect(bad.message).toContain("(400 ValidationError): 'to' (2026-09-01) must be later than 'from' (2026-10-01)");
  const missing = await rejectionOf(client.waap.reseller.totals("bananas", { from: "2026-09-01", to: "2026-09-02" }));
  expect(missing).toBeInstanceOf(NotFoundError);
  expect(missing.message).toContain("GET /waap/v1/prebilling/total/bananas failed (404 NotFoundError): The resource is not found");
});

test("429 RateLimitError when Retry-After exceeds the budget says so, and is not retried", async () => {
  await admin(sim.url, "POST", "/faults", { burst429: { count: 5, retryAfterSeconds: 120 }, pathPrefix: "/dns" });
  const { sleep, waits } = recordingSleep();
  const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { budgetMs: 60_000 }, sleep });
  const err = await rejectionOf(c.dns.delegationStatus("example.com"));
  expect(err).toBeInstanceOf(RateLimitError);
  expect((err as RateLimitError).retryAfterMs).toBe(120_000);
  expect(err.message).toContain("(429 RateLimitError)");
  expect(err.message).toContain("retry after 2m, beyond the remaining retry budget");
  expect(waits).toEqual([]);
  expect(logFor("/dns/v2/analyze/example.com/delegation-status")).toHaveLength(1);
});

test("5xx ServerError after the attempts are spent", async () => {
  await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/regions" });
  const { sleep, waits } = recordingSleep();
  const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { maxAttempts: 3 }, sleep });
  const err = await rejectionOf(c.cloud.regions.list());
  expect(err).toBeInstanceOf(ServerError);
  expect((err as ServerError).status).toBe(503);
  expect((err as ServerError).attempts).toBe(3);
  expect(err.message).toContain("GET /cloud/v1/regions failed (503 ServerError)");
  expect(err.message).toContain("Gave up after 3 attempts.");
  expect(waits).toHaveLength(2);
  expect(logFor("/cloud/v1/regions").map((r) => r.status)).toEqual([503, 503, 503]);
});

test("ConnectionError when nothing listens: never reached the server", async () => {
  const port = await freePort();
  const key = newKey();
  const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key, retry: { maxAttempts: 2 }, sleep: async () => {} });
  const err = await rejectionOf(c.iam.clients.me());
  expect(err).toBeInstanceOf(ConnectionError);
  const e = err as ConnectionError;
  expect(e.code).toBe("ECONNREFUSED");
  expect(e.mayHaveReachedServer).toBe(false);
  expect(e.attempts).toBe(2);
  expect(e.message).toContain(`GET /iam/clients/me failed (connection error ECONNREFUSED talking to 127.0.0.1:${port})`);
  expect(e.message).toContain("never reached the server");
  expectNoSecret(err, key);
});

describe("the key never appears, even when the server echoes it", () => {
  test("a key used as a cluster name (path and server message)", async () => {
    const err = await rejectionOf(client.cloud.k8s.getCluster(1, 76, sim.apiKey));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toContain("[REDACTED]");
    expectNoSecret(err, sim.apiKey);
  });

  test("a key used as an event name (storage 400 echoes it)", async () => {
    const err = await rejectionOf(client.storage.notifications.create({ name: sim.apiKey, bytes: 1 }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain("unknown event name");
    expect(err.message).toContain("[REDACTED]");
    expectNoSecret(err, sim.apiKey);
    expect(JSON.stringify((err as ValidationError).body)).not.toContain(sim.apiKey);
  });

  test("log lines are redacted too", async () => {
    const lines: string[] = [];
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, logger: { debug: (l) => lines.push(l), warn: (l) => lines.push(l) } });
    await rejectionOf(c.cloud.k8s.getCluster(1, 76, sim.apiKey));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).not.toContain(sim.apiKey);
  });
});

describe("ConfigurationError before any request", () => {
  test("missing base URL names the option", () => {
    expect(() => createClient({ baseUrl: "", apiKey: "x".repeat(20) })).toThrow(ConfigurationError);
    expect(() => createClient({ baseUrl: "", apiKey: "x".repeat(20) })).toThrow("No API base URL is configured (there is no default host): set the client option `baseUrl`.");
  });
  test("missing key names the option, or where the caller's optionSources say it is set", () => {
    expect(() => createClient({ baseUrl: sim.url, apiKey: "" })).toThrow("No API key is configured: set the client option `apiKey`.");
    expect(() => createClient({ baseUrl: sim.url, apiKey: "", optionSources: { apiKey: "the KEY file" } })).toThrow("No API key is configured: set the KEY file.");
  });
  test("a malformed key is refused without being printed", () => {
    const key = `${newKey()}\n`;
    let err: unknown;
    try {
      createClient({ baseUrl: sim.url, apiKey: key });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigurationError);
    expectNoSecret(err, key.trim());
  });
  test("a key pasted into the base URL setting is not printed", () => {
    const pasted = newKey();
    let err: unknown;
    try {
      createClient({ baseUrl: pasted, apiKey: newKey() });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/not a valid URL.*the client option `baseUrl`/);
    expectNoSecret(err, pasted);
  });
  test("a non-http base URL is refused", () => {
    expect(() => createClient({ baseUrl: "ftp://127.0.0.1", apiKey: newKey() })).toThrow(/http or https/);
  });
});

