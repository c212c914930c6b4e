/**
 * What a route handler returns. Below the router and the pieces of the simulator, which all
 * build or read results, so no import goes in a circle.
 */

/** What a handler returns; the server serialises it. */
export interface RouteResult {
  status: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A JSON answer, 200 unless told. */
export function ok(body: unknown, status = 200): RouteResult {
  return { status, body };
}

/** 204 without a body. */
export function noContent(): RouteResult {
  return { status: 204 };
}
