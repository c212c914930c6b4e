/**
 * The table behind the malformed-answer tests (malformed.test.ts, malformedStall.test.ts): every
 * API call the provider makes (each client function used by provider/resources,
 * provider/lookups and provider/tasks), every malformed answer a gateway, WAF, captive portal or
 * half-broken deployment gives, and a loopback server that plays the API with canned answers
 * (not the simulator: the answers must be broken in exactly one known way).
 */
import { createServer, type Server, type ServerResponse } from "http";
import { createClient, type ClientOptions, type CloudPlatformClient } from "../../../provider/api";
import { closeServer, listenOnLoopback } from "./helpers";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One API call: its wire route, the documented answer, and how the client makes it. */
export interface Call {
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
export const CALLS: readonly Call[] = [
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
    path: "/waap/v1/prebilling/total/domains",
    good: { limit: 100, offset: 0, count: 1, results: [{ date: "2026-09-01", amount: 3 }] },
    run: (c) => c.waap.reseller.totals("domains", { from: "2026-09-01", to: "2026-10-01" }),
  },
  { name: "reseller.ping", method: "GET", path: "/waap/ping", good: { message: "pong" }, run: (c) => c.waap.reseller.ping() },
  {
    name: "aiTasks.listAll",
    method: "GET",
    path: "/streaming/ai/tasks",
    good: { count: 1, next: null, previous: null, results: [{ task_id: "a-1", task_name: "transcription", status: "SUCCESS" }] },
    run: (c) => c.streaming.aiTasks.listAll(),
  },
];

/** The malformed answers. `apiKeyEcho` is put into pages, which a message must never show. */
export const MODES = ["html200", "html502", "truncated", "nulls", "wrongShape", "emptyBody", "hugeBody", "slowBody"] as const;
export type Mode = (typeof MODES)[number] | "jsonAsText" | "emptyObject";

/** Small, so the huge body is huge for this client without taking megabytes. */
export const CAP = 4096;
/**
 * How long a slowBody answer holds the rest of its body: far past any client timeout the tests
 * set, so the client always gives up first (the server drops the rest when the client goes).
 */
const STALL_MS = 60_000;

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
      const rest = setTimeout(() => res.end(whole.slice(Math.floor(whole.length / 2))), STALL_MS);
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
export const NULLS_ARE_AN_ANSWER = new Set(["dns.delegationStatus", "notifications.list"]);

/**
 * The calls whose answer is an open object that is `{}` when there is nothing to report: the
 * pool quota check lists only the quotas a pool would exceed. A quota reported as `null` is not
 * reported, and `{"weird":1}` is `{}` with a field we do not know, so both read as "nothing
 * exceeded" (the check is a guard: the upgrade then goes on as it would without it).
 */
export const OPEN_OBJECT_ANSWERS = new Set(["k8s.checkPoolQuota"]);

/**
 * Whether `mode` is a malformed answer to `call`, one it must refuse.
 * - A call documented as a 204 without a body accepts an empty body or any JSON body (a server
 *   that answers `{}`, `null` or `{"weird":1}` still did what was asked); only a body that is
 *   not JSON (an HTML page, a cut-short text) says something else answered. So emptyBody,
 *   nulls (the body `null`) and wrongShape are not malformed there.
 * - nulls is a real answer of the calls in {@link NULLS_ARE_AN_ANSWER}, and only of them.
 */
export function isMalformedFor(call: Call, mode: Mode): boolean {
  if (call.good === undefined) return !(mode === "emptyBody" || mode === "nulls" || mode === "wrongShape");
  if (OPEN_OBJECT_ANSWERS.has(call.name)) return !(mode === "nulls" || mode === "wrongShape");
  if (mode === "nulls") return !NULLS_ARE_AN_ANSWER.has(call.name);
  return true;
}

/**
 * How many (call, mode) pairs {@link isMalformedFor} excludes: 3 for each 204 call, 1 for each
 * call whose nulls are an answer, 2 for each open-object answer.
 */
export const NOT_MALFORMED = 3 * CALLS.filter((c) => c.good === undefined).length + NULLS_ARE_AN_ANSWER.size + 2 * OPEN_OBJECT_ANSWERS.size;

/** Every (call, mode) pair that is a malformed answer to that call, labelled `call x mode`. */
export const MALFORMED_CASES = CALLS.flatMap((call) =>
  MODES.filter((mode) => isMalformedFor(call, mode)).map((mode) => ({ call, mode, label: `${call.name} x ${mode}` })),
);

/** What one call made of the canned answers: its value or error, and how many requests it sent. */
export interface Outcome {
  readonly value?: unknown;
  readonly error?: Error;
  readonly attempts: number;
}

/** A loopback server answering every call of {@link CALLS} as planned, and a client for it. */
export interface CannedApi {
  /** Runs `call` with the server giving `mode` to its first `times` requests, then the documented answer. */
  outcome(call: Call, mode: Mode | "good", times: number, options?: Partial<ClientOptions>): Promise<Outcome>;
  close(): Promise<void>;
}

/** Starts a {@link CannedApi}; `key` is the client's API key, echoed into the HTML pages it serves. */
export async function startCannedApi(key: string): Promise<CannedApi> {
  /** The bad answer to give, and to how many requests (then the documented one). */
  let plan: { mode: Mode; times: number } = { mode: "html200", times: 0 };
  let requests: string[] = [];
  const server: Server = createServer((req, res) => {
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
  const baseUrl = await listenOnLoopback(server);
  const client = (options: Partial<ClientOptions>): CloudPlatformClient =>
    createClient({
      baseUrl,
      apiKey: key,
      maxResponseBytes: CAP,
      retry: { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0 },
      sleep: async () => undefined,
      ...options,
    });
  return {
    async outcome(call, mode, times, options = {}) {
      plan = mode === "good" ? { mode: "html200", times: 0 } : { mode, times };
      requests = [];
      try {
        const value = await call.run(client(options));
        return { value, attempts: requests.length };
      } catch (err) {
        return { error: err as Error, attempts: requests.length };
      }
    },
    close: () => closeServer(server),
  };
}
