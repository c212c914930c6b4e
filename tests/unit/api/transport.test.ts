/**
 * Transport details that the simulator cannot show: the exact headers sent (checked with a
 * loopback capture server), URL building and redaction as pure functions, and the version.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "http";
import { readFileSync } from "fs";
import { join } from "path";
import { createClient, DEFAULT_USER_AGENT, redact, VERSION } from "../../../provider/api";
import { NotFoundError, ServerError } from "../../../provider/api/errors";
import * as redaction from "../../../provider/api/redact";
import { apiPath, serializeQuery } from "../../../provider/api/url";
import { startSimulator } from "../../../simulator";
import { admin, closeServer, expectNoSecret, listenOnLoopback, newKey } from "./helpers";

describe("headers", () => {
  let server: Server;
  let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let url = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ tasks: ["t-1"] }));
      });
    });
    url = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));
  beforeEach(() => {
    seen = [];
  });

  test("Authorization, User-Agent, JSON body", async () => {
    const key = newKey();
    const c = createClient({ baseUrl: `${url}/`, apiKey: key });
    await c.cloud.k8s.upgrade(1, 76, "prod cluster", "v1.31.2");
    const req = seen[0];
    expect(req?.method).toBe("POST");
    expect(req?.url).toBe("/cloud/v2/k8s/clusters/1/76/prod%20cluster/upgrade");
    expect(req?.headers["authorization"]).toBe(`apikey ${key}`);
    expect(req?.headers["user-agent"]).toBe(`pulumi-cloudplatform/${VERSION}`);
    expect(req?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req?.body ?? "")).toEqual({ version: "v1.31.2" });
  });

  test("a custom user agent replaces the default", async () => {
    // One attempt: the canned body is not a client, and its retries would only wait out backoff.
    const c = createClient({ baseUrl: url, apiKey: newKey(), userAgent: "my-tool/2", retry: { maxAttempts: 1 } });
    await c.iam.clients.me().catch(() => undefined);
    expect(seen[0]?.headers["user-agent"]).toBe("my-tool/2");
  });
});

test("the simulator accepts the client's auth header", async () => {
  const sim = await startSimulator({ apiKey: newKey() });
  try {
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
    expect((await c.waap.reseller.ping()).message).toBe("pong");
  } finally {
    await sim.close();
  }
});

test("VERSION matches package.json", () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8")) as { version: string };
  expect(VERSION).toBe(pkg.version);
  expect(DEFAULT_USER_AGENT).toBe(`pulumi-cloudplatform/${pkg.version}`);
});

describe("url building", () => {
  test("each interpolated segment is encoded; empty and dot segments are refused", () => {
    expect(apiPath`/a/${"x/y?z#"}/${7}/b`).toBe("/a/x%2Fy%3Fz%23/7/b");
    expect(() => apiPath`/a/${""}`).toThrow(/must name exactly one resource/);
    expect(() => apiPath`/a/${".."}`).toThrow(/must name exactly one resource/);
    expect(() => apiPath`/a/${NaN}`).toThrow(/finite number/);
  });
  test("arrays become repeated keys; null and undefined are dropped", () => {
    expect(serializeQuery({ state: ["NEW", "RUNNING"], limit: 5, name: undefined, x: null, q: "a b&c" })).toBe("?state=NEW&state=RUNNING&limit=5&q=a%20b%26c");
    expect(serializeQuery({})).toBe("");
  });
});

describe("redaction", () => {
  const key = "cpk_0123456789abcdef0123456789";
  test("full key, echoed prefixes and credentials in text", () => {
    expect(redact(`bad key ${key} here`, [key])).toBe("bad key [REDACTED] here");
    expect(redact(`Bad token: ${key.slice(0, 10)}`, [key])).toBe("Bad token: [REDACTED]");
    expect(redact("Authorization: apikey someOtherToken123", [key])).toBe("Authorization: apikey [REDACTED]");
    expect(redact("nothing secret", [key])).toBe("nothing secret");
  });

  test("text that merely starts like the key is not scrubbed; a truncated echo of it is", () => {
    const demoKey = "demo-c7f3a9e21b04d5";
    expect(redact("demo-cluster: upgrading v1.30.4 -> v1.31.2", [demoKey])).toBe("demo-cluster: upgrading v1.30.4 -> v1.31.2");
    expect(redact("Bad token: demo-c7f3...", [demoKey])).toBe("Bad token: [REDACTED]...");
    expect(redact("Bad token: demo-c7", [demoKey])).toBe("Bad token: [REDACTED]");
    expect(redact(`demo-cluster and ${demoKey}`, [demoKey])).toBe("demo-cluster and [REDACTED]");
  });
});

test("a request's path is redacted once, however many attempts it takes, and every message shows it redacted", async () => {
  const sim = await startSimulator({ apiKey: newKey() });
  const spy = jest.spyOn(redaction, "redactDeep");
  try {
    // A cluster named like the key: its path must never show the key.
    const name = sim.apiKey;
    const path = `/cloud/v2/k8s/clusters/1/76/${name}`;
    await admin(sim.url, "POST", "/faults", { burst429: { count: 2, retryAfterSeconds: 1 }, path });
    const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, sleep: async () => undefined });
    const err = await c.cloud.k8s.getCluster(1, 76, name).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).path).toBe("/cloud/v2/k8s/clusters/1/76/[REDACTED]");
    expect((err as Error).message).not.toContain(name);
    expect(sim.requests().filter((r) => r.path === path)).toHaveLength(3);
    expect(spy.mock.calls.filter(([text]) => text === path)).toHaveLength(1);
  } finally {
    spy.mockRestore();
    await sim.close();
  }
});

test("a failure is scrubbed once, where it enters the transport: its error, fields, log lines and retry events never hold the key", async () => {
  const key = newKey();
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(503, { "content-type": "application/json", "x-request-id": `req-${key}` });
    res.end(JSON.stringify({ message: `Bad token: ${key.slice(0, 10)}`, exception_class: key, nested: { deep: [key] } }));
  });
  const url = await listenOnLoopback(server);
  const spy = jest.spyOn(redaction, "redactDeep");
  try {
    const lines: string[] = [];
    const events: unknown[] = [];
    const logger = { warn: (line: string) => lines.push(line), debug: (line: string) => lines.push(line) };
    const c = createClient({ baseUrl: url, apiKey: key, retry: { maxAttempts: 2 }, sleep: async () => undefined, logger, onRetry: (e) => events.push(e) });
    const err = await c.cloud.projects.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expectNoSecret(err, key);
    const e = err as ServerError;
    expect(e.message).toContain("Bad token: [REDACTED]");
    expect(JSON.stringify([e.body, e.requestId, e.exceptionClass, e.serverMessage, lines, events])).not.toContain(key.slice(0, 10));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(events).toHaveLength(1);
    // The path once, then each of the two failures once.
    expect(spy).toHaveBeenCalledTimes(3);
  } finally {
    spy.mockRestore();
    await closeServer(server);
  }
});
