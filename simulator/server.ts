/**
 * The HTTP server: auth and dispatch, with the request log (`requestLog.ts`) and fault
 * injection (`faults.ts`) applied around them.
 *
 * Built on Node's `http` module only, bound to 127.0.0.1, so the simulator runs anywhere the
 * provider runs without extra dependencies and never listens on a public interface. Every
 * non-admin request goes through the same pipeline: read body -> faults -> settle tasks -> auth
 * -> route -> (spoil the answer, when a malformed-answer rule says so) -> respond -> log. Admin
 * requests (`/__admin`) skip auth, faults and the log. How each answer is written to the socket
 * is `respond.ts`.
 */
import * as http from "http";
import { AddressInfo } from "net";
import { randomUUID } from "crypto";
import {
  badRequest,
  forbidden,
  HttpError,
  internalError,
  methodNotAllowed,
  notFound,
  notImplemented,
  Product,
  productOf,
  serviceUnavailable,
  simpleError,
  tooManyRequests,
  unauthenticated,
} from "./errors";
import { FaultController } from "./faults";
import { RequestLog } from "./requestLog";
import { fromError, send, sendMalformed } from "./respond";
import type { SimContext } from "./context";
import { matchRoute, type Route, type RouteContext } from "./router";
import type { RouteResult } from "./routeResult";
import { adminRoutes } from "./routes/admin";
import { cloudRoutes } from "./routes/cloud";
import { dnsRoutes } from "./routes/dns";
import { iamRoutes } from "./routes/iam";
import { k8sRoutes } from "./routes/k8s";
import { resellerRoutes } from "./routes/reseller";
import { storageRoutes } from "./routes/storage";
import { streamingRoutes } from "./routes/streaming";

/** Every public (authenticated) route, in match order. */
export const apiRoutes: readonly Route[] = [
  ...cloudRoutes,
  ...k8sRoutes,
  ...storageRoutes,
  ...dnsRoutes,
  ...resellerRoutes,
  ...streamingRoutes,
  ...iamRoutes,
];

/** Methods that change state; the read-only token gets 403 on them. */
export const WRITE_METHODS = new Set(["POST", "PUT", "DELETE", "PATCH"]);

/** Largest request body accepted (bytes). */
const MAX_BODY = 1024 * 1024;

/** Server settings resolved from the simulator options. */
export interface ServerSettings {
  apiKey: string;
  readOnlyApiKey: string;
  /** One line per request, when set. */
  log?: (line: string) => void;
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? (all[0] ?? "") : all;
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY) {
        reject(new Error("body too large"));
        req.destroy();
      }
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/**
 * Checks the Authorization header: `apikey <token>`, the word in any case, exactly one space.
 * Returns the error to send, or undefined when the request may proceed.
 */
export function checkAuth(
  header: string | undefined,
  method: string,
  product: Product,
  requestId: string,
  settings: ServerSettings,
): HttpError | undefined {
  if (header === undefined || header.trim() === "") return unauthenticated(product, true, requestId);
  const m = /^apikey (\S+)$/i.exec(header);
  const token = m?.[1];
  if (token === settings.apiKey) return undefined;
  if (token === settings.readOnlyApiKey) return WRITE_METHODS.has(method) ? forbidden(product, requestId) : undefined;
  return unauthenticated(product, false, requestId);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Creates the request handler for a simulator.
 *
 * Why a factory: `index.ts` owns lifecycle (listen, close, state), this module owns per-request
 * behaviour, and tests can reach both through `startSimulator`.
 */
export function createHandler(
  sim: SimContext & { requestLog: RequestLog; faults: FaultController },
  settings: ServerSettings,
): http.RequestListener {
  return (req, res) => {
    void handle(sim, settings, req, res).catch(() => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      }
    });
  };
}

async function dispatch(
  sim: SimContext,
  routes: readonly Route[],
  method: string,
  path: string,
  query: URLSearchParams,
  rawBody: string,
  requestId: string,
  product: Product,
  admin: boolean,
): Promise<RouteResult> {
  const match = matchRoute(routes, method, path);
  const unserved = admin ? undefined : sim.unserved.statusFor(method, path);
  if (unserved === 501) throw notImplemented(product, method, path, requestId);
  if (match.kind === "not-found" || unserved === 404) {
    throw admin ? simpleError(404, `no admin route ${method} ${path}`) : notFound(product, `Path ${path} could not be found`, requestId);
  }
  if (match.kind === "method-not-allowed") {
    throw admin ? simpleError(405, `method ${method} not allowed`) : methodNotAllowed(product, method, requestId);
  }
  let body: unknown;
  if (rawBody.trim() !== "") {
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw admin ? simpleError(400, "body is not valid JSON") : badRequest(product, "Request body is not valid JSON", requestId);
    }
  }
  const ctx: RouteContext = { sim, method, path, query, params: match.params, body, requestId, product };
  return match.route.handler(ctx);
}

async function handle(
  sim: SimContext & { requestLog: RequestLog; faults: FaultController },
  settings: ServerSettings,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const started = Date.now();
  const requestId = randomUUID();
  res.setHeader("X-Request-Id", requestId);
  const method = (req.method ?? "GET").toUpperCase();
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const path = url.pathname;
  const query = url.searchParams;
  const product = productOf(path);
  const admin = path === "/__admin" || path.startsWith("/__admin/");

  let rawBody = "";
  try {
    rawBody = await readBody(req);
  } catch {
    send(res, fromError(admin ? simpleError(413, "body too large") : badRequest(product, "Request body too large", requestId)));
    return;
  }

  if (admin) {
    sim.tasks.settle();
    let result: RouteResult;
    try {
      result = await dispatch(sim, adminRoutes, method, path, query, rawBody, requestId, product, true);
    } catch (err) {
      result = err instanceof HttpError ? fromError(err) : fromError(simpleError(500, String(err)));
    }
    send(res, result);
    return;
  }

  let fault: string | undefined;
  let sentStatus: number | undefined;
  const record = (status: number, responseBytes = 0) => {
    const entry = sim.requestLog.add({
      time: new Date(started).toISOString(),
      method,
      path,
      query: queryObject(query),
      status,
      requestId,
      responseBytes,
      ...(fault ? { fault } : {}),
      ...(sentStatus !== undefined && sentStatus !== status ? { sentStatus } : {}),
    });
    const sent = entry.sentStatus !== undefined ? ` (sent ${entry.sentStatus})` : "";
    settings.log?.(
      `${entry.time} ${method} ${path}${url.search} -> ${status}${sent}${fault ? ` [fault ${fault}]` : ""} ${Date.now() - started}ms req=${requestId}`,
    );
  };

  const faults = sim.faults;
  let resetAfter = false;
  sim.requestLog.begin({ method, path, requestId });
  if (faults.applies(method, path)) {
    const latency = faults.latencyMs();
    if (latency > 0) {
      fault = "latency";
      sim.requestLog.hold(requestId, true);
      await sleep(latency);
      sim.requestLog.hold(requestId, false);
    }
    const decided = faults.decide(method, path);
    if (decided.retryAfter !== undefined) {
      fault = "429";
      const r = fromError(tooManyRequests(product, decided.retryAfter, requestId));
      record(r.status, send(res, r));
      return;
    }
    if (decided.error) {
      fault = "503";
      const r = fromError(serviceUnavailable(product, requestId));
      record(r.status, send(res, r));
      return;
    }
    if (decided.reset) {
      fault = "reset";
      if (faults.afterHandling() && WRITE_METHODS.has(method)) {
        resetAfter = true;
      } else {
        req.socket.destroy();
        record(0);
        return;
      }
    }
  }

  const spoil = sim.malformed.take(method, path);
  sim.tasks.settle();
  let result: RouteResult;
  const authError = checkAuth(req.headers.authorization, method, product, requestId, settings);
  if (authError) {
    result = fromError(authError);
  } else {
    try {
      result = await dispatch(sim, apiRoutes, method, path, query, rawBody, requestId, product, false);
      if (method === "GET" && result.status === 200) sim.listShifts.afterPage(sim, path);
    } catch (err) {
      result = err instanceof HttpError ? fromError(err) : fromError(internalError(product, requestId));
      if (!(err instanceof HttpError)) settings.log?.(`internal error: ${String(err)}`);
    }
  }
  if (resetAfter) {
    req.socket.destroy();
    record(result.status);
    return;
  }
  if (spoil) {
    fault = spoil.mode;
    sentStatus = await sendMalformed(res, spoil, result);
    record(result.status);
    return;
  }
  record(result.status, send(res, result));
}

/** Listens on 127.0.0.1 and resolves with the bound port. */
export function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
