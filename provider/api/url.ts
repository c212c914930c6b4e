/**
 * URL building: path-segment encoding and repeated-key query strings.
 *
 * Why its own module: user-supplied names (cluster names, zone names) go into paths, and a name
 * holding `/`, `?` or `..` must never address a different resource than the one asked for.
 */
import { CloudPlatformError } from "./errors";

/** A value accepted in a query string; arrays become repeated keys (`key=a&key=b`). */
export type QueryScalar = string | number | boolean;
/** A query parameter value; `undefined` and `null` are left out. */
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;
/** Query parameters by their wire (snake_case) names. */
export type Query = Readonly<Record<string, QueryValue>>;

/**
 * Tagged template for API paths: literal parts are kept as written, every interpolated value is
 * one path segment passed through `encodeURIComponent`. Empty, `.` and `..` segments are refused
 * because they would silently address another resource.
 *
 * @example apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${name}/upgrade`
 */
export function apiPath(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += encodeSegment(value) + (strings[i + 1] ?? "");
  });
  return out;
}

/** Encode one path segment, refusing values that cannot name a single resource. */
export function encodeSegment(value: string | number): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new CloudPlatformError(`Invalid path parameter ${String(value)}: expected a finite number`);
  }
  const text = String(value);
  if (text === "" || text === "." || text === "..") {
    throw new CloudPlatformError(`Invalid path parameter ${JSON.stringify(text)}: it must name exactly one resource`);
  }
  return encodeURIComponent(text);
}

/**
 * Serialize query parameters: keys in the given order, arrays as repeated keys, `null` and
 * `undefined` dropped. Returns "" or a string starting with `?`.
 */
export function serializeQuery(query: Query | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const items: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const item of items) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}
