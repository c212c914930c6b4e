/**
 * Readers of the admin API's request bodies (CONTRACT.md "Admin API"): each refuses a bad value
 * with 400 `{error}` naming the field, so every admin route words its refusals alike.
 */
import { simpleError } from "./errors";
import { isObject, type JsonObject } from "./state";

/** The body as a JSON object, or 400. */
export function objectBody(body: unknown): JsonObject {
  if (!isObject(body)) throw simpleError(400, "body must be a JSON object");
  return body;
}

/** A number from 0 to 1 (a rate), undefined when absent. */
export function fraction(b: JsonObject, key: string): number | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || v < 0 || v > 1) throw simpleError(400, `${key} must be a number from 0 to 1`);
  return v;
}

/** A non-negative integer, undefined when absent. */
export function nonNegativeInteger(b: JsonObject, key: string): number | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw simpleError(400, `${key} must be a non-negative integer`);
  return v;
}

/** The requests a fault or rule applies to: each field that is set must match. */
export interface RequestFilter {
  /** Only requests with this method (upper case). */
  method?: string;
  /** Only requests to exactly this path (`/storage/notifications/v1/event`, not `.../events`). */
  path?: string;
  /** Only requests whose path starts with this (for paths holding ids made at run time). */
  pathPrefix?: string;
}

/** Methods a filter may name. */
const FILTER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `path` and `pathPrefix` of a body, each a string starting with `/` when given. */
export function pathFilter(b: JsonObject): Pick<RequestFilter, "path" | "pathPrefix"> {
  const filter: Pick<RequestFilter, "path" | "pathPrefix"> = {};
  for (const key of ["path", "pathPrefix"] as const) {
    const v = b[key];
    if (v === undefined) continue;
    if (typeof v !== "string" || !v.startsWith("/")) throw simpleError(400, `${key} must be a string starting with /`);
    filter[key] = v;
  }
  return filter;
}

/** `path`, `pathPrefix` and `method` (one of GET, POST, PUT, PATCH, DELETE in any case) of a body. */
export function requestFilter(b: JsonObject): RequestFilter {
  const filter: RequestFilter = pathFilter(b);
  if (b.method !== undefined) {
    if (typeof b.method !== "string" || !FILTER_METHODS.includes(b.method.toUpperCase())) {
      throw simpleError(400, `method must be one of ${FILTER_METHODS.join(", ")}`);
    }
    filter.method = b.method.toUpperCase();
  }
  return filter;
}

/** Whether a request matches every field of the filter that is set. */
export function matchesRequest(filter: RequestFilter, method: string, path: string): boolean {
  return (
    (filter.method === undefined || filter.method === method) &&
    (filter.path === undefined || filter.path === path) &&
    (filter.pathPrefix === undefined || path.startsWith(filter.pathPrefix))
  );
}
