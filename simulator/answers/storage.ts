/**
 * Storage notification events as each dialect answers them (CONTRACT.md "Dialects").
 *
 * Each function takes the answer the regular dialect builds and returns the answer to send:
 * unchanged for "regular", shaped as the public material allows for "public-api" (`dialect.ts`).
 */
import { isPublicApi, nilIfEmpty, omit, withFuture, type SimulatorDialect } from "../dialect";
import type { RouteResult } from "../routeResult";
import type { JsonObject } from "../state";

/**
 * One event as answered by create and in the list. "public-api": never `client_id` (the public
 * `EventResponse`, `LimitByBytes` and `LimitByCount` have none), empty `bucket_name` /
 * `storage_name` left out (a Go server's `omitempty`), `uuid` kept (the lifecycles find events
 * by it), plus an unknown field.
 */
export function eventAnswer(dialect: SimulatorDialect, event: JsonObject): JsonObject {
  if (!isPublicApi(dialect)) return event;
  const shaped = omit(event, ["client_id"]);
  for (const key of ["bucket_name", "storage_name"]) if (shaped[key] === "") delete shaped[key];
  return withFuture(shaped);
}

/**
 * The event list (an object keyed by the four kinds). "public-api": a kind without events is
 * `null` (a Go server's nil slice) instead of `[]`, items as `eventAnswer`, plus an unknown
 * field beside the kinds; an account without any event answers `{}` (the public
 * `EventsResponse` requires none of the kinds: a server that leaves empty ones out sends that).
 */
export function eventListAnswer(dialect: SimulatorDialect, list: Record<string, JsonObject[]>): JsonObject {
  if (!isPublicApi(dialect)) return list;
  if (Object.values(list).every((items) => items.length === 0)) return {};
  const out: JsonObject = {};
  for (const [kind, items] of Object.entries(list)) out[kind] = nilIfEmpty(items.map((e) => eventAnswer(dialect, e)));
  return withFuture(out);
}

/**
 * The answer of PUT / DELETE `/storage/notifications/v1/event`: 204 without a body ("regular",
 * as the OpenAPI declares), 200 with `{}` under "public-api" (the OpenAPI names the answer a
 * "SuccessResponse"; servers that write an empty object with 200 exist). Clients must treat
 * any 2xx as success and not require a body or its absence.
 */
export function eventWriteAnswer(dialect: SimulatorDialect): RouteResult {
  return isPublicApi(dialect) ? { status: 200, body: {} } : { status: 204 };
}
