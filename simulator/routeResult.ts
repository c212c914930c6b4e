/**
 * What a route handler returns, and the helpers that build the common answers.
 *
 * Why its own module: the handlers, the dialects (`dialect.ts`, `answers/`) and the
 * malformed-answer rules (`malformed.ts`) all build or read results, while the router imports
 * the pieces of the running simulator that some of them belong to; the result type sits below
 * both, so no import goes in a circle.
 */

/** What a handler returns; the server serialises it. */
export interface RouteResult {
  status: number;
  /** JSON body; omitted for 204. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

/** JSON 200 result helper. */
export function ok(body: unknown, status = 200): RouteResult {
  return { status, body };
}

/** 204 result helper. */
export function noContent(): RouteResult {
  return { status: 204 };
}
