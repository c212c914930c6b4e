/**
 * Every API call the provider makes (each client function used by provider/resources,
 * provider/lookups and provider/tasks) against every malformed answer a gateway, WAF, captive
 * portal or half-broken deployment gives: each case either recovers (a one-off bad answer to a
 * GET is retried) or fails with an error naming the call and the field; none returns a value.
 * Some answers look broken but are legitimate for some calls (the tolerant reader): JSON labelled
 * `text/plain`, any JSON body to a call documented as a 204, and all-null values where every
 * field is open; those are read as the documented meaning, tested on their own below.
 * A loopback server plays the API with canned answers (not the simulator: the answers must be
 * broken in exactly one known way).
 */
import { createServer, type Server, type ServerResponse } from "http";
import {
  CloudPlatformError,
  ConnectionError,
  createClient,
  ResponseFormatError,
  ResponseTooLargeError,
  ServerError,
  type CloudPlatformClient,
} from "../../../provider/api";
import { closeServer, expectNoSecret, listenOnLoopback, newKey, rejectionOf } from "./helpers";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One API call: its wire route, the documented answer, and how the client makes it. */
interface Call {
  readonly name: string;
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly path: string;
  /** The documented answer; `undefined` for a 204 without a body. */
  readonly good: Json | undefined;
  readonly run: (c: CloudPlatformClient) => Promise<unknown>;
}

const cluster = {
  id: "26faff20-0996-4eb8-ac21-74f54f320163",
  name: "prod",
  version: "v1.30.4",
  status: "Provisioned",
  is_public: false,
  task_id: null,
  pools: [{ id: "p-1", name: "pool-1", flavor_id: "g1-standard-2-4", node_count: 3, status: "Running" }],
};
const task = { id: "t-1", task_type: "upgrade_k8s_cluster", state: "FINISHED", error: null, created_resources: null };
const event = { name: "reaching_used_space", storage_name: "media", bytes: 500 };

/** Every call of provider/resources, provider/lookups and provider/tasks. */
const CALLS: readonly Call[] = [
  {
    name: "projects.listAll",
    method: "GET",
    path: "/cloud/v1/projects",
    good: { count: 1, results: [{ id: 1, name: "default", is_default: true, state: "ACTIVE" }] },
    run: (c) => c.cloud.projects.listAll(),
  },
  {
    name: "regions.listAll",
    method: "GET",
    path: "/cloud/v1/regions",
    good: {
      count: 1,
      results: [
        {
          id: 76,
          display_name: "Luxembourg-2",
          state: "ACTIVE",
          access_level: "core",
          zone: "EMEA",
          has_kvm: true,
          has_baremetal: false,
          has_k8s: true,
          has_dbaas: false,
          available_volume_types: ["standard"],
        },
      ],
    },
    run: (c) => c.cloud.regions.listAll({}, { pageSize: 100 }),
  },
  {
    name: "instances.listAll",
    method: "GET",
    path: "/cloud/v1/instances/1/76",
    good: { count: 1, results: [{ id: "i-1", name: "web-01", status: "ACTIVE", vm_state: "active" }] },
    run: (c) => c.cloud.instances.listAll(1, 76),
  },
  {
    name: "k8s.listAllClusters",
    method: "GET",
    path: "/cloud/v2/k8s/clusters/1/76",
    good: { count: 1, results: [cluster] },
    run: (c) => c.cloud.k8s.listAllClusters(1, 76),
  },
  { name: "k8s.getCluster", method: "GET", path: "/cloud/v2/k8s/clusters/1/76/prod", good: cluster, run: (c) => c.cloud.k8s.getCluster(1, 76, "prod") },
  {
    name: "k8s.upgradeVersions",
    method: "GET",
    path: "/cloud/v2/k8s/clusters/1/76/prod/upgrade_versions",
    good: { count: 1, results: [{ version: "v1.31.2" }] },
    run: (c) => c.cloud.k8s.upgradeVersions(1, 76, "prod"),
  },
  {
    name: "k8s.upgrade",
    method: "POST",
    path: "/cloud/v2/k8s/clusters/1/76/prod/upgrade",
    good: { tasks: ["t-1"] },
    run: (c) => c.cloud.k8s.upgrade(1, 76, "prod", "v1.31.2"),
  },
  {
    name: "k8s.checkPoolQuota",
    method: "POST",
    path: "/cloud/v2/k8s/clusters/1/76/pools/check_limits",
    good: { vm_count_limit: 4, vm_count_usage: 3, vm_count_requested: 3 },
    run: (c) => c.cloud.k8s.checkPoolQuota(1, 76, { flavorId: "g1-standard-2-4", nodeCount: 3 }),
  },
  { name: "tasks.get", method: "GET", path: "/cloud/v1/tasks/t-1", good: task, run: (c) => c.cloud.tasks.get("t-1") },
  { name: "tasks.listAll", method: "GET", path: "/cloud/v1/tasks", good: { count: 1, results: [task] }, run: (c) => c.cloud.tasks.listAll() },
  {
    name: "notifications.create",
    method: "POST",
    path: "/storage/notifications/v1/event",
    good: { uuid: "u-1", ...event },
    run: (c) => c.storage.notifications.create(event),
  },
  {
    name: "notifications.list",
    method: "GET",
    path: "/storage/notifications/v1/events",
    good: {
      reaching_used_space: [{ uuid: "u-1", storage_name: "media", bytes: 500 }],
      reaching_files_quantity: [],
      reaching_used_traffic: [],
      reaching_used_requests: [],
    },
    run: (c) => c.storage.notifications.list(),
  },
  {
    name: "notifications.update",
    method: "PUT",
    path: "/storage/notifications/v1/event",
    good: undefined,
    run: (c) => c.storage.notifications.update({ ...event, uuid: "u-1" }),
  },
  {
    name: "notifications.delete",
    method: "DELETE",
    path: "/storage/notifications/v1/event",
    good: undefined,
    run: (c) => c.storage.notifications.delete({ ...event, uuid: "u-1" }),
  },
  {
    name: "dns.delegationStatus",
    method: "GET",
    path: "/dns/v2/analyze/example.com/delegation-status",
    good: {
      authoritative_name_servers: [{ name: "ns1.service-dns.example", ipv4Addresses: ["192.0.2.53"], ipv6Addresses: [] }],
      service_authorized_count: 1,
      non_service_authorized_count: 0,
      is_whitelabel_delegation: false,
      zone_exists: true,
    },
    run: (c) => c.dns.delegationStatus("example.com"),
  },
  { name: "iam.me", method: "GET", path: "/iam/clients/me", good: { id: 7350925, email: "team@example.com", status: "active" }, run: (c) => c.iam.clients.me() },
  {
    name: "reseller.totals",
    method: "GET",
    path: "/waap/reseller/v1/prebilling/total/domains",
    good: { limit: 100, offset: 0, count: 1, results: [{ date: "2026-09-01", amount: 3 }] },
    run: (c) => c.waap.reseller.totals("domains", { from: "2026-09-01", to: "2026-10-01" }),
  },
  { name: "reseller.ping", method: "GET", path: "/waap/reseller/ping", good: { message: "pong" }, run: (c) => c.waap.reseller.ping() },
  {
    name: "aiTasks.listAll",
    method: "GET",
    path: "/streaming/ai/tasks",
    good: { count: 1, next: null, previous: null, results: [{ task_id: "a-1", task_name: "transcription", status: "SUCCESS" }] },
    run: (c) => c.streaming.aiTasks.listAll(),
  },
];

/** The malformed answers. `apiKeyEcho` is put into pages, which a message must never show. */
const MODES = ["html200", "html502", "truncated", "nulls", "wrongShape", "emptyBody", "hugeBody", "slowBody"] as const;
type Mode = (typeof MODES)[number] | "jsonAsText" | "emptyObject";

/** Small, so the huge body is huge for this client without taking megabytes. */
const CAP = 4096;
/** The client's per-request timeout in the slowBody cases: a body that stalls for longer is given up. */
const TIMEOUT_MS = 300;

function answer(res: ServerResponse, mode: Mode | "good", call: Call, key: string): void {
  const json = (status: number, text: string, type = "application/json") => {
    res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
    res.end(text);
  };
  const goodText = call.good === undefined ? "" : JSON.stringify(call.good);
  switch (mode) {
    case "good":
      if (call.good === undefined) {
        res.writeHead(204).end();
        return;
      }
      return json(200, goodText);
    case "html200":
      return json(200, `<!doctype html><html><body><h1>Sign in</h1><p>session for apikey ${key}</p></body></html>`, "text/html; charset=utf-8");
    case "html502":
      return json(502, `<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center> ${key}</body></html>`, "text/html");
    case "truncated": {
      const whole = goodText || JSON.stringify({ uuid: "u-1", name: "reaching_used_space" });
      return json(200, whole.slice(0, Math.floor(whole.length / 2)));
    }
    case "nulls":
      return json(200, JSON.stringify(call.good === undefined ? null : nullEveryValue(call.good)));
    case "wrongShape":
      return json(200, JSON.stringify({ weird: 1 }));
    case "emptyBody":
      return json(200, "");
    case "hugeBody": {
      // Sent chunked (no Content-Length), so the cap must hold while the stream is read.
      res.writeHead(200, { "content-type": "application/json" });
      res.write(`{"pad":"`);
      for (let i = 0; i < 8; i++) res.write("x".repeat(CAP));
      res.end(`","good":${goodText || "null"}}`);
      return;
    }
    case "slowBody": {
      // Headers and half the body at once, the rest only long after the client's timeout: a
      // gateway whose upstream stalled mid-answer.
      const whole = goodText || "{}";
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(whole) });
      res.write(whole.slice(0, Math.floor(whole.length / 2)));
      const rest = setTimeout(() => res.end(whole.slice(Math.floor(whole.length / 2))), 20 * TIMEOUT_MS);
      res.on("close", () => clearTimeout(rest));
      return;
    }
    // Not malformed (not in MODES): the documented JSON labelled text/plain, and `{}`.
    case "jsonAsText":
      return json(200, goodText || "{}", "text/plain");
    case "emptyObject":
      return json(200, "{}");
  }
}

/** Every value of the top-level object (or the body itself) becomes null. */
function nullEveryValue(v: Json): Json {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  return Object.fromEntries(Object.keys(v).map((k) => [k, null]));
}

/**
 * The calls whose every field is open, so that an answer with every top-level value null is a
 * real one: the delegation status (each field reads as null, "not reported") and the event list
 * (a Go server sends a kind without events as `null`: no events). For every other call a field
 * the call needs is null, which is malformed.
 */
const NULLS_ARE_AN_ANSWER = new Set(["dns.delegationStatus", "notifications.list"]);

/**
 * The calls whose answer is an open object that is `{}` when there is nothing to report: the
 * pool quota check lists only the quotas a pool would exceed. A quota reported as `null` is not
 * reported, and `{"weird":1}` is `{}` with a field we do not know, so both read as "nothing
 * exceeded" (the check is a guard: the upgrade then goes on as it would without it).
 */
const OPEN_OBJECT_ANSWERS = new Set(["k8s.checkPoolQuota"]);

/**
 * Whether `mode` is a malformed answer to `call`, one it must refuse.
 * - A call documented as a 204 without a body accepts an empty body or any JSON body (a server
 *   that answers `{}`, `null` or `{"weird":1}` still did what was asked); only a body that is
 *   not JSON (an HTML page, a cut-short text) says something else answered. So emptyBody,
 *   nulls (the body `null`) and wrongShape are not malformed there.
 * - nulls is a real answer of the calls in {@link NULLS_ARE_AN_ANSWER}, and only of them.
 */
function isMalformedFor(call: Call, mode: Mode): boolean {
  if (call.good === undefined) return !(mode === "emptyBody" || mode === "nulls" || mode === "wrongShape");
  if (OPEN_OBJECT_ANSWERS.has(call.name)) return !(mode === "nulls" || mode === "wrongShape");
  if (mode === "nulls") return !NULLS_ARE_AN_ANSWER.has(call.name);
  return true;
}

/**
 * How many (call, mode) pairs {@link isMalformedFor} excludes: 3 for each 204 call, 1 for each
 * call whose nulls are an answer, 2 for each open-object answer.
 */
const NOT_MALFORMED = 3 * CALLS.filter((c) => c.good === undefined).length + NULLS_ARE_AN_ANSWER.size + 2 * OPEN_OBJECT_ANSWERS.size;

describe("every API call against every malformed answer", () => {
  let server: Server;
  let baseUrl = "";
  const key = newKey();
  /** The bad answer to give, and to how many requests (then the documented one). */
  let plan: { mode: Mode; times: number } = { mode: "html200", times: 0 };
  let requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const path = (req.url ?? "").split("?")[0] ?? "";
        requests.push(`${req.method} ${path}`);
        const call = CALLS.find((c) => c.method === req.method && c.path === path);
        if (!call) {
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: `no route ${req.method} ${path}` }));
          return;
        }
        if (plan.times > 0) {
          plan.times--;
          answer(res, plan.mode, call, key);
        } else {
          answer(res, "good", call, key);
        }
      });
    });
    baseUrl = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));

  const client = (mode: Mode | "good") =>
    createClient({
      baseUrl,
      apiKey: key,
      maxResponseBytes: CAP,
      ...(mode === "slowBody" ? { timeoutMs: TIMEOUT_MS } : {}),
      retry: { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0 },
      sleep: async () => undefined,
    });

  async function outcome(call: Call, mode: Mode | "good", times: number): Promise<{ value?: unknown; error?: Error; attempts: number }> {
    plan = mode === "good" ? { mode: "html200", times: 0 } : { mode, times };
    requests = [];
    try {
      const value = await call.run(client(mode));
      return { value, attempts: requests.length };
    } catch (err) {
      return { error: err as Error, attempts: requests.length };
    }
  }

  test("the documented answer of every call is accepted (so the cases below test the malformation, not the canned data)", async () => {
    for (const call of CALLS) {
      const r = await outcome(call, "good", 0);
      expect({ call: call.name, error: r.error?.message }).toEqual({ call: call.name, error: undefined });
    }
  });

  test("a malformed answer on every attempt: each call fails naming the call and the field; no value comes back", async () => {
    const tally = { tried: 0, clearErrors: 0, silent: [] as string[] };
    for (const call of CALLS) {
      for (const mode of MODES) {
        if (!isMalformedFor(call, mode)) continue;
        tally.tried++;
        const r = await outcome(call, mode, Number.MAX_SAFE_INTEGER);
        const label = `${call.name} x ${mode}`;
        if (!r.error) {
          tally.silent.push(`${label} returned ${JSON.stringify(r.value)?.slice(0, 120)}`);
          continue;
        }
        const err = r.error;
        expect({ label, cls: err instanceof CloudPlatformError }).toEqual({ label, cls: true });
        expect({ label, message: err.message }).toEqual({ label, message: expect.stringContaining(`${call.method} ${call.path}`) });
        expectNoSecret(err, key);
        if (mode === "html502") {
          expect({ label, cls: err instanceof ServerError }).toEqual({ label, cls: true });
        } else if (mode === "slowBody") {
          // No whole answer came: a timeout, which for a write leaves open whether it acted.
          expect({ label, cls: err instanceof ConnectionError && err.timedOut && err.mayHaveReachedServer }).toEqual({ label, cls: true });
        } else {
          expect({ label, cls: err instanceof ResponseFormatError }).toEqual({ label, cls: true });
          const format = err as ResponseFormatError;
          expect(format.field).not.toBe("");
          if (format.field !== "(body)") expect({ label, message: err.message }).toEqual({ label, message: expect.stringContaining(`field ${format.field}`) });
          expect(err instanceof ResponseTooLargeError).toBe(mode === "hugeBody");
        }
        // Reads are retried like a 5xx (a too-large answer is not: it would come again); writes never.
        const retried = call.method === "GET" && mode !== "hugeBody";
        expect({ label, attempts: r.attempts }).toEqual({ label, attempts: retried ? 3 : 1 });
        tally.clearErrors++;
      }
    }
    expect(tally.silent).toEqual([]);
    expect(NOT_MALFORMED).toBe(10);
    expect(tally.tried).toBe(CALLS.length * MODES.length - NOT_MALFORMED);
    expect(tally.clearErrors).toBe(tally.tried);
  });

  test("a one-off malformed answer to a read is retried and the documented answer comes back; a write is not repeated", async () => {
    let recovered = 0;
    let expected = 0;
    for (const call of CALLS) {
      const clean = await outcome(call, "good", 0);
      for (const mode of MODES) {
        if (!isMalformedFor(call, mode) || mode === "hugeBody") continue;
        if (call.method === "GET") expected++;
        const r = await outcome(call, mode, 1);
        const label = `${call.name} x ${mode} once`;
        if (call.method === "GET") {
          expect({ label, error: r.error?.message, value: r.value }).toEqual({ label, error: undefined, value: clean.value });
          expect({ label, attempts: r.attempts }).toEqual({ label, attempts: 2 });
          recovered++;
        } else {
          expect({ label, failed: r.error instanceof CloudPlatformError, attempts: r.attempts }).toEqual({ label, failed: true, attempts: 1 });
        }
      }
    }
    expect(recovered).toBe(expected);
    // Every GET but those whose nulls are an answer, in every mode but hugeBody (and nulls for those two).
    expect(expected).toBe(CALLS.filter((c) => c.method === "GET").length * (MODES.length - 1) - NULLS_ARE_AN_ANSWER.size);
  });

  test("every call reads its documented JSON labelled text/plain as the documented value, at the first attempt", async () => {
    let read = 0;
    for (const call of CALLS) {
      if (call.good === undefined) continue;
      const clean = await outcome(call, "good", 0);
      const r = await outcome(call, "jsonAsText", 1);
      const label = `${call.name} as text/plain`;
      expect({ label, error: r.error?.message, value: r.value, attempts: r.attempts }).toEqual({ label, error: undefined, value: clean.value, attempts: 1 });
      expect(r.value).toBeDefined();
      read++;
    }
    expect(read).toBe(CALLS.filter((c) => c.method === "GET").length + 3);
  });

  test("a call documented as a 204 reads a JSON body ({}, null, text/plain) as success, and still refuses an HTML body", async () => {
    const writes = CALLS.filter((c) => c.good === undefined);
    expect(writes.map((c) => c.name)).toEqual(["notifications.update", "notifications.delete"]);
    for (const call of writes) {
      for (const mode of ["emptyObject", "jsonAsText", "nulls", "wrongShape", "emptyBody"] as const) {
        const r = await outcome(call, mode, 1);
        expect({ call: call.name, mode, error: r.error?.message, value: r.value, attempts: r.attempts }).toEqual({ call: call.name, mode, error: undefined, value: undefined, attempts: 1 });
      }
      for (const mode of ["html200", "truncated"] as const) {
        const r = await outcome(call, mode, 1);
        expect(r.error).toBeInstanceOf(ResponseFormatError);
        expect(r.error?.message).toContain(`${call.method} ${call.path} returned 200 with an unexpected body: expected no body or JSON (the documented answer is a 204), got a body that is not JSON`);
        expect(r.attempts).toBe(1);
      }
    }
  });

  test("all-null values are the delegation status's 'nothing reported' (never false or 0) and the event list's 'no events'", async () => {
    const delegation = await outcome(CALLS.find((c) => c.name === "dns.delegationStatus") as Call, "nulls", 1);
    expect(delegation.error).toBeUndefined();
    expect(delegation.attempts).toBe(1);
    expect(delegation.value).toEqual({
      authoritativeNameServers: [],
      serviceAuthorizedCount: null,
      nonServiceAuthorizedCount: null,
      isWhitelabelDelegation: null,
      zoneExists: null,
    });
    for (const [field, v] of Object.entries(delegation.value as Record<string, unknown>)) {
      expect({ field, reads: v === false || v === 0 }).toEqual({ field, reads: false });
    }
    const events = await outcome(CALLS.find((c) => c.name === "notifications.list") as Call, "nulls", 1);
    expect(events).toEqual({ value: [], attempts: 1 });
  });

  test("the pool quota check reads its quotas, and all-null values or unknown fields as nothing exceeded", async () => {
    const call = CALLS.find((c) => c.name === "k8s.checkPoolQuota") as Call;
    expect((await outcome(call, "good", 0)).value).toEqual({ exceeded: [{ quota: "vm_count", limit: 4, usage: 3, requested: 3 }] });
    for (const mode of ["nulls", "wrongShape", "emptyObject"] as const) {
      expect({ mode, ...(await outcome(call, mode, 1)) }).toEqual({ mode, value: { exceeded: [] }, attempts: 1 });
    }
  });

  test("a format error says what came, cut short and without the key", async () => {
    const call = CALLS.find((c) => c.name === "k8s.getCluster") as Call;
    const html = (await outcome(call, "html200", Number.MAX_SAFE_INTEGER)).error as ResponseFormatError;
    expect(html.message).toMatch(
      /^GET \/cloud\/v2\/k8s\/clusters\/1\/76\/prod returned 200 with an unexpected body: expected JSON, got a body that is not JSON \(content type "text\/html; charset=utf-8"\); received text "<!doctype html>/,
    );
    expect(html.message).toContain("[REDACTED]");
    expect(html.message).toContain("(3 attempts)");
    const nulls = (await outcome(call, "nulls", Number.MAX_SAFE_INTEGER)).error as ResponseFormatError;
    // The id is open now; the name (the cluster's identifier) is the first required field.
    expect(nulls.field).toBe("name");
    expect(nulls.message).toContain("field name: expected string, got null; received null.");
    const huge = (await outcome(call, "hugeBody", 1)).error as ResponseFormatError;
    expect(huge.message).toContain(`exceeds the client's maxResponseBytes of ${CAP} bytes`);
    expect(huge.received.length).toBeLessThan(200);
  });
});
