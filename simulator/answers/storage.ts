/**
 * Storage notification events in each dialect (CONTRACT.md "Dialects" row 5).
 */
import { nilIfEmpty, omit, unchanged, withFuture, type ByDialect } from "../dialect";
import type { RouteResult } from "../routeResult";
import type { JsonObject } from "../state";

/** How a dialect shapes the storage notification API's answers. */
export interface StorageAnswers {
  /** One event, as create answers it and as a list item. */
  event(event: JsonObject): JsonObject;
  /** The event list, an object keyed by the four kinds. */
  eventList(list: Record<string, JsonObject[]>): JsonObject;
  /** The answer of PUT and DELETE `/storage/notifications/v1/event`: clients must take any 2xx. */
  eventWrite(): RouteResult;
}

/** Never `client_id` (no public event schema has it), empty names left out (`omitempty`); `uuid` kept. */
function publicEvent(event: JsonObject): JsonObject {
  const shaped = omit(event, ["client_id"]);
  for (const key of ["bucket_name", "storage_name"]) if (shaped[key] === "") delete shaped[key];
  return withFuture(shaped);
}

/** A kind without events `null` (a Go nil slice); no event at all `{}` (no kind is required). */
function publicEventList(list: Record<string, JsonObject[]>): JsonObject {
  if (Object.values(list).every((items) => items.length === 0)) return {};
  const out: JsonObject = {};
  for (const [kind, items] of Object.entries(list)) out[kind] = nilIfEmpty(items.map(publicEvent));
  return withFuture(out);
}

/** The storage answers of each dialect. */
export const storageAnswers: ByDialect<StorageAnswers> = {
  // 204 without a body, as the OpenAPI declares.
  regular: { event: unchanged, eventList: unchanged, eventWrite: () => ({ status: 204 }) },
  // 200 `{}`: servers that write the "SuccessResponse" as an empty object exist.
  "public-api": { event: publicEvent, eventList: publicEventList, eventWrite: () => ({ status: 200, body: {} }) },
};
