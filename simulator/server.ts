/**
 * The HTTP server: each request goes through a pipeline of named steps (`requestSteps.ts`).
 *
 * API requests: read body -> faults -> spoil? -> settle tasks -> auth -> unserved? -> route ->
 * list shifts -> deliver -> log. Admin requests (`/__admin`) skip auth, faults and the log.
 * Built on Node's `http` module only and bound to 127.0.0.1: no extra dependencies, never a
 * public interface.
 */
import * as http from "http";
import { AddressInfo } from "net";
import { randomUUID } from "crypto";
import { HttpError, productOf, simpleError } from "./errors";
import {
  ADMIN_ROUTING_ERRORS,
  apiRoutingErrors,
  deliver,
  type Exchange,
  injectFaults,
  type Outcome,
  recordRequest,
  routeAnswer,
  type ServerContext,
  type ServerSettings,
} from "./requestSteps";
import { fromError, send } from "./respond";
import { dispatch, type Route } from "./router";
import type { RouteResult } from "./routeResult";
import { adminRoutes } from "./routes/admin";
import { cloudRoutes } from "./routes/cloud";
import { dnsRoutes } from "./routes/dns";
import { iamRoutes } from "./routes/iam";
import { k8sRoutes } from "./routes/k8s";
import { resellerRoutes } from "./routes/reseller";
import { storageRoutes } from "./routes/storage";
import { streamingRoutes } from "./routes/streaming";

export type { ServerContext, ServerSettings } from "./requestSteps";

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

/** Largest request body accepted (bytes). */
const MAX_BODY = 1024 * 1024;

/**
 * Creates the request handler of a simulator: `index.ts` owns the lifecycle (listen, close,
 * state), this module what happens to each request.
 */
export function createHandler(sim: ServerContext, settings: ServerSettings): http.RequestListener {
  return (req, res) => {
    void handle(sim, settings, req, res).catch(() => {
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end();
      }
    });
  };
}

async function handle(sim: ServerContext, settings: ServerSettings, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const ex = exchangeOf(req, res);
  const admin = ex.path === "/__admin" || ex.path.startsWith("/__admin/");
  try {
    ex.rawBody = await readBody(req);
  } catch {
    send(res, fromError(admin ? ADMIN_ROUTING_ERRORS.tooLarge() : apiRoutingErrors(ex.product, ex.requestId).tooLarge()));
    return;
  }
  await (admin ? handleAdmin(sim, ex) : handleApi(sim, settings, ex));
}

/** The request's facts every step reads; its id is sent at once as `X-Request-Id`. */
function exchangeOf(req: http.IncomingMessage, res: http.ServerResponse): Exchange {
  const requestId = randomUUID();
  res.setHeader("X-Request-Id", requestId);
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  return {
    req,
    res,
    requestId,
    started: Date.now(),
    method: (req.method ?? "GET").toUpperCase(),
    path: url.pathname,
    query: url.searchParams,
    search: url.search,
    product: productOf(url.pathname),
    rawBody: "",
  };
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

async function handleAdmin(sim: ServerContext, ex: Exchange): Promise<void> {
  sim.tasks.settle();
  let result: RouteResult;
  try {
    result = await dispatch(sim, adminRoutes, ex, ADMIN_ROUTING_ERRORS);
  } catch (err) {
    result = fromError(err instanceof HttpError ? err : simpleError(500, String(err)));
  }
  send(ex.res, result);
}

async function handleApi(sim: ServerContext, settings: ServerSettings, ex: Exchange): Promise<void> {
  sim.requestLog.begin({ method: ex.method, path: ex.path, requestId: ex.requestId });
  const faults = await injectFaults(sim, ex);
  const outcome = faults.outcome ?? (await answerPastFaults(sim, settings, ex, faults.resetAfterHandling));
  recordRequest(sim, settings, ex, await deliver(ex, outcome), faults.held);
}

/** A malformed-answer rule is drawn before auth, so a refused request uses up its turn too. */
async function answerPastFaults(sim: ServerContext, settings: ServerSettings, ex: Exchange, resetAfterHandling: boolean): Promise<Outcome> {
  const spoil = sim.malformed.take(ex.method, ex.path);
  sim.tasks.settle();
  const result = await routeAnswer(sim, settings, apiRoutes, ex);
  if (resetAfterHandling) return { kind: "reset", status: result.status };
  return spoil ? { kind: "spoilt", result, choice: spoil } : { kind: "answer", result };
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
