/**
 * Route table types and matching, shared by the server and the per-product route modules.
 *
 * Why a separate module: route modules need the context type, and the server needs the route
 * modules; keeping the types here avoids an import cycle.
 */
import { Clock } from "./clock";
import type { SimulatorDialect } from "./dialect";
import { Product } from "./errors";
import { StateStore } from "./state";
import type { InFlightRequest } from "./requestLog";
import type { MalformedRules } from "./malformed";
import { TaskEngine } from "./tasks";

/** What a handler returns; the server serialises it. */
export interface RouteResult {
  status: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

/** One entry of the request log (CONTRACT.md "Admin API"). */
export interface RequestLogEntry {
  seq: number;
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  requestId: string;
  /** Bytes of the response body sent (0 for none, a reset connection or a malformed answer); for "bytes received" figures. */
  responseBytes: number;
  /**
   * Set when an injected fault shaped the response: "latency", "429", "503", "reset", or the
   * malformed-answer mode (`html200`, `truncated`, ...; the handler ran and `status` is its own).
   */
  fault?: string;
  /** The status actually sent, when a malformed answer sent another than the handler's (`html200`, `html502`, a 204 spoilt). */
  sentStatus?: number;
}

/** Fault configuration accepted by `POST /__admin/faults` (CONTRACT.md). */
export interface FaultConfig {
  errorRate?: number;
  resetRate?: number;
  latencyMs?: number;
  /** `count` 429s with Retry-After; again after every `everyRequests` further matching requests, when set. */
  burst429?: { count: number; retryAfterSeconds: number; everyRequests?: number };
  /** Only requests to exactly this path (`/storage/notifications/v1/event`, not `.../events`). */
  path?: string;
  /** Only requests whose path starts with this. */
  pathPrefix?: string;
  /** Only requests with this method (upper case). */
  method?: string;
  afterHandling?: boolean;
  /** Only the first this many matching requests (what is left of it, in `GET /__admin/faults`). */
  times?: number;
  /** Seed of the 503 and reset draws; the same seed replays the same faults. */
  seed?: number;
}

/** The pieces of the running simulator a handler may use. */
export interface SimContext {
  store: StateStore;
  clock: Clock;
  tasks: TaskEngine;
  /** Rate limiter for delegation status: returns seconds to wait, or 0 when allowed. */
  delegationLimiter: { take(): number };
  /** Request log (admin API). */
  requestLog: { list(): RequestLogEntry[]; inFlight(): InFlightRequest[]; clear(): void };
  /** Fault injection state (admin API). */
  faults: { get(): FaultConfig; set(config: FaultConfig): void; clear(): void };
  /** Malformed-answer rules (admin API `/__admin/malformed`). */
  malformed: MalformedRules;
  /**
   * How answers are shaped (`dialect.ts`); changed by `POST /__admin/dialect`, back to the
   * started dialect on reset.
   */
  dialect: SimulatorDialect;
  /** Restores seed state and the started dialect, clears the log and faults (admin reset). */
  reset(): void;
}

/** Per-request input to a handler. */
export interface RouteContext {
  sim: SimContext;
  method: string;
  path: string;
  query: URLSearchParams;
  /** Named groups of the route pattern, URI-decoded. */
  params: Record<string, string>;
  /** Parsed JSON body, or undefined when the request had none. */
  body: unknown;
  requestId: string;
  product: Product;
}

/** A route: method, anchored path pattern with named groups, handler. */
export interface Route {
  method: string;
  pattern: RegExp;
  handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
}

/** Result of matching a path against a route table. */
export type MatchResult =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "method-not-allowed" }
  | { kind: "not-found" };

/** Finds the route for a method and path; distinguishes unknown paths from wrong methods. */
export function matchRoute(routes: readonly Route[], method: string, path: string): MatchResult {
  let pathMatched = false;
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) {
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        params[k] = v;
      }
    }
    return { kind: "found", route, params };
  }
  return pathMatched ? { kind: "method-not-allowed" } : { kind: "not-found" };
}

/** JSON 200 result helper. */
export function ok(body: unknown, status = 200): RouteResult {
  return { status, body };
}

/** 204 result helper. */
export function noContent(): RouteResult {
  return { status: 204 };
}

/** Whether a value is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
