/**
 * The steps of the request pipeline (`server.ts`), each a function of one request and the
 * running simulator, in the order an API request meets them: faults, auth, unserved endpoints,
 * the route, list shifts, delivery (plain, spoilt or reset) and the request log.
 */
import type * as http from "http";
import type { SimContext } from "./context";
import {
  badRequest,
  forbidden,
  HttpError,
  internalError,
  methodNotAllowed,
  notFound,
  notImplemented,
  type Product,
  serviceUnavailable,
  simpleError,
  tooManyRequests,
  unauthenticated,
} from "./errors";
import type { FaultController } from "./faults";
import type { MalformedChoice } from "./malformed";
import { loggedBody, type RequestLog } from "./requestLog";
import { fromError, send, sendMalformed } from "./respond";
import { dispatch, type Route, type RoutedRequest, type RoutingErrors } from "./router";
import type { RouteResult } from "./routeResult";

/** Methods that change state; the read-only token gets 403 on them. */
export const WRITE_METHODS = new Set(["POST", "PUT", "DELETE", "PATCH"]);

/** Server settings resolved from the simulator options. */
export interface ServerSettings {
  apiKey: string;
  readOnlyApiKey: string;
  /** One line per request, when set. */
  log?: (line: string) => void;
}

/** The running simulator as the server sees it: the request log and faults with their write side. */
export type ServerContext = SimContext & { requestLog: RequestLog; faults: FaultController };

/** One request on its way through the pipeline. */
export interface Exchange extends RoutedRequest {
  readonly req: http.IncomingMessage;
  readonly res: http.ServerResponse;
  /** Epoch ms of arrival, for the log line's duration. */
  readonly started: number;
  /** The query string as sent (`?` included), for the log line. */
  readonly search: string;
}

/** What the pipeline does with a request in the end. */
export type Outcome =
  | { readonly kind: "answer"; readonly result: RouteResult; readonly fault?: "429" | "503" }
  | { readonly kind: "spoilt"; readonly result: RouteResult; readonly choice: MalformedChoice }
  /** The connection destroyed; `status` is the handler's, or 0 when it never ran. */
  | { readonly kind: "reset"; readonly status: number };

/** Routing refusals of the admin API, all `{error}`. */
export const ADMIN_ROUTING_ERRORS: RoutingErrors & { tooLarge(): HttpError } = {
  notFound: (method, path) => simpleError(404, `no admin route ${method} ${path}`),
  methodNotAllowed: (method) => simpleError(405, `method ${method} not allowed`),
  invalidJson: () => simpleError(400, "body is not valid JSON"),
  tooLarge: () => simpleError(413, "body too large"),
};

/** Routing refusals of the API, in the request's product shape. */
export function apiRoutingErrors(product: Product, requestId: string): RoutingErrors & { tooLarge(): HttpError } {
  return {
    notFound: (_method, path) => notFound(product, `Path ${path} could not be found`, requestId),
    methodNotAllowed: (method) => methodNotAllowed(product, method, requestId),
    invalidJson: () => badRequest(product, "Request body is not valid JSON", requestId),
    tooLarge: () => badRequest(product, "Request body too large", requestId),
  };
}

/** What the faults decided before the handler runs. */
export interface FaultVerdict {
  /** Whether injected latency held the request. */
  readonly held: boolean;
  /** The outcome when a fault ends the request here (429, 503, reset). */
  readonly outcome?: Outcome;
  /** A write to reset only after it was handled (`afterHandling`). */
  readonly resetAfterHandling: boolean;
}

/** Holds a matching request for the latency, then draws a 429, a 503 or a reset (CONTRACT.md order). */
export async function injectFaults(sim: ServerContext, ex: Exchange): Promise<FaultVerdict> {
  const { faults } = sim;
  if (!faults.applies(ex.method, ex.path)) return { held: false, resetAfterHandling: false };
  const held = await hold(sim.requestLog, ex.requestId, faults.latencyMs());
  const decided = faults.decide(ex.method, ex.path);
  const end = (outcome: Outcome): FaultVerdict => ({ held, outcome, resetAfterHandling: false });
  if (decided.retryAfter !== undefined) {
    return end({ kind: "answer", fault: "429", result: fromError(tooManyRequests(ex.product, decided.retryAfter, ex.requestId)) });
  }
  if (decided.error) return end({ kind: "answer", fault: "503", result: fromError(serviceUnavailable(ex.product, ex.requestId)) });
  if (!decided.reset) return { held, resetAfterHandling: false };
  if (faults.afterHandling() && WRITE_METHODS.has(ex.method)) return { held, resetAfterHandling: true };
  return end({ kind: "reset", status: 0 });
}

async function hold(log: RequestLog, requestId: string, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  log.hold(requestId, true);
  await new Promise((resolve) => setTimeout(resolve, ms));
  log.hold(requestId, false);
  return true;
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

/** 404 or 501 for an endpoint played as not served (`unserved.ts`), whether or not a route has it. */
export function unservedError(sim: SimContext, ex: Exchange): HttpError | undefined {
  const status = sim.unserved.statusFor(ex.method, ex.path);
  if (status === 501) return notImplemented(ex.product, ex.method, ex.path, ex.requestId);
  if (status === 404) return apiRoutingErrors(ex.product, ex.requestId).notFound(ex.method, ex.path);
  return undefined;
}

/**
 * The answer to an API request past the faults: auth, unserved endpoints, then the route; a
 * page answered moves its list when a list-shift rule says so. An unexpected exception is 500.
 */
export async function routeAnswer(sim: SimContext, settings: ServerSettings, routes: readonly Route[], ex: Exchange): Promise<RouteResult> {
  const refused = checkAuth(ex.req.headers.authorization, ex.method, ex.product, ex.requestId, settings) ?? unservedError(sim, ex);
  if (refused) return fromError(refused);
  try {
    const result = await dispatch(sim, routes, ex, apiRoutingErrors(ex.product, ex.requestId));
    if (ex.method === "GET" && result.status === 200) sim.listShifts.afterPage(sim, ex.path);
    return result;
  } catch (err) {
    if (err instanceof HttpError) return fromError(err);
    settings.log?.(`internal error: ${String(err)}`);
    return fromError(internalError(ex.product, ex.requestId));
  }
}

/** What the request log keeps of a delivered outcome. */
export interface Delivered {
  /** The handler's status (0 when a reset came before it). */
  readonly status: number;
  readonly responseBytes: number;
  /** The status actually sent, when a spoilt answer sent another. */
  readonly sentStatus?: number;
  readonly fault?: string;
}

/** Writes the outcome to the socket (or destroys it). */
export async function deliver(ex: Exchange, outcome: Outcome): Promise<Delivered> {
  switch (outcome.kind) {
    case "reset":
      ex.req.socket.destroy();
      return { status: outcome.status, responseBytes: 0, fault: "reset" };
    case "spoilt": {
      const sentStatus = await sendMalformed(ex.res, outcome.choice, outcome.result);
      const status = outcome.result.status;
      return { status, responseBytes: 0, fault: outcome.choice.mode, ...(sentStatus !== status ? { sentStatus } : {}) };
    }
    case "answer":
      return { status: outcome.result.status, responseBytes: send(ex.res, outcome.result), ...(outcome.fault ? { fault: outcome.fault } : {}) };
  }
}

/** Adds the request to the log (`held` names latency as the fault when no other shaped it) and logs its line. */
export function recordRequest(sim: ServerContext, settings: ServerSettings, ex: Exchange, delivered: Delivered, held: boolean): void {
  const fault = delivered.fault ?? (held ? "latency" : undefined);
  const entry = sim.requestLog.add({
    time: new Date(ex.started).toISOString(),
    method: ex.method,
    path: ex.path,
    query: queryObject(ex.query),
    status: delivered.status,
    requestId: ex.requestId,
    responseBytes: delivered.responseBytes,
    ...(fault ? { fault } : {}),
    ...(delivered.sentStatus !== undefined ? { sentStatus: delivered.sentStatus } : {}),
    ...loggedBody(ex.rawBody),
  });
  const sent = entry.sentStatus !== undefined ? ` (sent ${entry.sentStatus})` : "";
  settings.log?.(
    `${entry.time} ${ex.method} ${ex.path}${ex.search} -> ${entry.status}${sent}${fault ? ` [fault ${fault}]` : ""} ${Date.now() - ex.started}ms req=${ex.requestId}`,
  );
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length === 1 ? (all[0] ?? "") : all;
  }
  return out;
}
