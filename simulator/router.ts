/**
 * The route table: what a route is, what a handler receives, and dispatching a request to its
 * route. The server and every per-product route module (`routes/`) share it.
 *
 * What a handler returns lives in `routeResult.ts` and the running simulator it may use in
 * `context.ts`; this module only imports them, so no import goes in a circle.
 */
import type { SimContext } from "./context";
import type { HttpError, Product } from "./errors";
import type { RouteResult } from "./routeResult";

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

/** How a route table words the refusals of routing itself (the API per product, the admin API `{error}`). */
export interface RoutingErrors {
  notFound(method: string, path: string): HttpError;
  methodNotAllowed(method: string): HttpError;
  invalidJson(): HttpError;
}

/** A request as the router takes it: the body still as text. */
export interface RoutedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  rawBody: string;
  requestId: string;
  product: Product;
}

/** Matches the request, parses its JSON body and runs the handler; routing refusals are thrown. */
export async function dispatch(sim: SimContext, routes: readonly Route[], request: RoutedRequest, errors: RoutingErrors): Promise<RouteResult> {
  const { method, path, query, rawBody, requestId, product } = request;
  const match = matchRoute(routes, method, path);
  if (match.kind === "not-found") throw errors.notFound(method, path);
  if (match.kind === "method-not-allowed") throw errors.methodNotAllowed(method);
  let body: unknown;
  if (rawBody.trim() !== "") {
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw errors.invalidJson();
    }
  }
  return match.route.handler({ sim, method, path, query, params: match.params, body, requestId, product });
}
