/**
 * Small readers used by the explicit wire-to-TypeScript mappings of each product module.
 *
 * Why: responses are snake_case JSON from another system; each mapping names every field it
 * reads, and these helpers turn a missing or mistyped field into a sane default (or a clear
 * ResponseFormatError for the top-level shape) instead of `undefined` leaking into callers.
 */
import { ResponseFormatError } from "./errors";
import type { ApiResponse } from "./transport";

/** A JSON object as received. */
export type WireObject = Readonly<Record<string, unknown>>;

/** The response body as an object, or a ResponseFormatError naming the call. */
export function bodyObject(res: ApiResponse): WireObject {
  if (isObject(res.data)) return res.data;
  throw new ResponseFormatError(res.method, res.path, res.status, `expected a JSON object, got ${describe(res.data)}`);
}

/** `{count, results}` with `results` an array; `count` defaults to the number of results. */
export function bodyList(res: ApiResponse): { count: number; results: readonly WireObject[]; body: WireObject } {
  const body = bodyObject(res);
  const results = body["results"];
  if (!Array.isArray(results)) {
    throw new ResponseFormatError(res.method, res.path, res.status, `expected "results" to be an array, got ${describe(results)}`);
  }
  const objects = results.filter(isObject);
  return { count: numOr(body["count"], objects.length), results: objects, body };
}

/** True for a plain JSON object. */
export function isObject(v: unknown): v is WireObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A string field, or "" when absent. */
export function str(v: unknown): string {
  return typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
}

/** A string field, or null when absent. */
export function strOrNull(v: unknown): string | null {
  return typeof v === "string" ? v : v === undefined || v === null ? null : String(v);
}

/** A numeric field (numeric strings accepted), or `fallback`. */
export function numOr(v: unknown, fallback: number): number {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return fallback;
}

/** A numeric field, or null when absent. */
export function numOrNull(v: unknown): number | null {
  const n = numOr(v, NaN);
  return Number.isNaN(n) ? null : n;
}

/** A boolean field, or false. */
export function bool(v: unknown): boolean {
  return v === true || v === "true";
}

/** An array of strings, or []. */
export function strArray(v: unknown): string[] {
  return Array.isArray(v) ? v.map(str) : [];
}

/** An array of objects, or []. */
export function objArray(v: unknown): WireObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

function describe(v: unknown): string {
  if (v === undefined) return "an empty body";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `text ${JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}...` : v)}`;
  return typeof v;
}
