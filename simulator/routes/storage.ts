/**
 * Object storage notification events (spec "Create notification event").
 *
 * Choices for what the spec leaves open, recorded in CONTRACT.md:
 * - `uuid` is assigned by the server on create (a uuid in the create body is ignored);
 * - an event's identity is name + storage_name + bucket_name + client_id (query); creating a
 *   second event with the same identity is 409 `{error}`;
 * - `bytes` pairs with reaching_used_space / reaching_used_traffic, `count` with
 *   reaching_files_quantity / reaching_used_requests; the other kind is 400 `{error}`;
 * - PUT and DELETE find the event by `uuid` when given, else by identity; a missing event is
 *   400 `{error: "event not found"}` (the operations document 400/401/409 only, no 404).
 *
 * The dialect shapes the answers (`ctx.sim.answers.storage`, `answers/storage.ts`).
 */
import { randomUUID } from "crypto";
import { simpleError } from "../errors";
import type { Route, RouteContext } from "../router";
import { ok } from "../routeResult";
import { definedOnly, isObject, SimState, StoredEvent } from "../state";
import { addEvent, eventByIdentity, eventByUuid, eventIdentityKey, reindexEvent } from "../eventIndex";

/** Event names and which limit field each takes. */
export const EVENT_LIMIT_KIND: Record<string, "bytes" | "count"> = {
  reaching_used_space: "bytes",
  reaching_files_quantity: "count",
  reaching_used_traffic: "bytes",
  reaching_used_requests: "count",
};

/** The four event names in the order the list response uses. */
export const EVENT_NAMES = Object.keys(EVENT_LIMIT_KIND);

function parseClientId(ctx: RouteContext): number | undefined {
  const raw = ctx.query.get("client_id");
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) throw simpleError(400, `invalid client_id: ${raw}`);
  return Number(raw);
}

function optString(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw simpleError(400, `${key} must be a string`);
  return v;
}

function optUint(body: Record<string, unknown>, key: string): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw simpleError(400, `${key} must be a non-negative integer`);
  return v;
}

/** Checks name and limit pairing; returns the validated fields. */
function validate(body: unknown, requireName: boolean): Partial<StoredEvent> {
  if (!isObject(body)) throw simpleError(400, "request body must be a JSON object (Event)");
  const name = optString(body, "name");
  if (requireName && name === undefined) throw simpleError(400, "name is required");
  if (name !== undefined && !(name in EVENT_LIMIT_KIND)) {
    throw simpleError(400, `unknown event name ${JSON.stringify(name)}; allowed: ${EVENT_NAMES.join(", ")}`);
  }
  const bytes = optUint(body, "bytes");
  const count = optUint(body, "count");
  if (name !== undefined) checkPairing(name, bytes, count);
  const storage = optString(body, "storage_name");
  const bucket = optString(body, "bucket_name");
  const uuid = optString(body, "uuid");
  return definedOnly({ name, storage_name: storage, bucket_name: bucket, bytes, count, uuid });
}

function checkPairing(name: string, bytes: number | undefined, count: number | undefined): void {
  const kind = EVENT_LIMIT_KIND[name];
  if (kind === "bytes" && count !== undefined) throw simpleError(400, `${name} takes a limit in bytes, not count`);
  if (kind === "count" && bytes !== undefined) throw simpleError(400, `${name} takes a limit in count, not bytes`);
}

function describe(e: Partial<StoredEvent>): string {
  return `${e.name ?? "?"} for storage ${JSON.stringify(e.storage_name ?? "")} bucket ${JSON.stringify(e.bucket_name ?? "")}`;
}

/** The event as the API shows it (only fields that are set; `client_id` when given at create). */
export function eventView(e: StoredEvent): Record<string, unknown> {
  const { storage_name, bucket_name, bytes, count, client_id } = e;
  return { uuid: e.uuid, name: e.name, ...definedOnly({ storage_name, bucket_name, bytes, count, client_id }) };
}

/** The list response: an object keyed by the four names, each an array. */
export function listView(state: SimState): Record<string, Array<Record<string, unknown>>> {
  const out: Record<string, Array<Record<string, unknown>>> = {};
  for (const n of EVENT_NAMES) out[n] = [];
  for (const e of state.storageEvents) {
    const { name: _n, ...item } = eventView(e);
    (out[e.name] ??= []).push(item);
  }
  return out;
}

/** Finds an event by uuid (when given) or by identity. */
function locate(state: SimState, ev: Partial<StoredEvent>, clientId: number | undefined): StoredEvent | undefined {
  if (ev.uuid !== undefined) return eventByUuid(state.storageEvents, ev.uuid);
  if (ev.name === undefined) throw simpleError(400, "uuid or name is required to identify the event");
  return eventByIdentity(state.storageEvents, ev.name, ev.storage_name, ev.bucket_name, clientId);
}

/**
 * The event a PUT or DELETE names, with the fields its body gives. A missing event is 400
 * `{error: "event not found"}`: the operations document only 400/401/409.
 */
function targetOf(ctx: RouteContext): { target: StoredEvent; ev: Partial<StoredEvent> } {
  const clientId = parseClientId(ctx);
  const ev = validate(ctx.body, false);
  const target = locate(ctx.sim.store.state, ev, clientId);
  if (!target) throw simpleError(400, "event not found");
  return { target, ev };
}

function alreadyExists(e: StoredEvent) {
  return simpleError(409, `event ${describe(e)} already exists (uuid ${e.uuid})`);
}

function createEvent(ctx: RouteContext) {
  const clientId = parseClientId(ctx);
  const ev = validate(ctx.body, true);
  const name = ev.name as string;
  const state = ctx.sim.store.state;
  const existing = eventByIdentity(state.storageEvents, name, ev.storage_name, ev.bucket_name, clientId);
  if (existing) throw alreadyExists(existing);
  const { storage_name, bucket_name, bytes, count } = ev;
  const stored: StoredEvent = { uuid: randomUUID(), name, ...definedOnly({ storage_name, bucket_name, bytes, count, client_id: clientId }) };
  addEvent(state.storageEvents, stored);
  ctx.sim.store.save();
  return ok(ctx.sim.answers.storage.event(eventView(stored)));
}

function updateEvent(ctx: RouteContext) {
  const { target, ev } = targetOf(ctx);
  const state = ctx.sim.store.state;
  const next: StoredEvent = { ...target, ...definedOnly({ name: ev.name, storage_name: ev.storage_name, bucket_name: ev.bucket_name }) };
  if (ev.bytes !== undefined) {
    next.bytes = ev.bytes;
    delete next.count;
  }
  if (ev.count !== undefined) {
    next.count = ev.count;
    delete next.bytes;
  }
  checkPairing(next.name, next.bytes, next.count);
  const clash = eventByIdentity(state.storageEvents, next.name, next.storage_name, next.bucket_name, next.client_id);
  if (clash && clash !== target) throw alreadyExists(clash);
  const before = eventIdentityKey(target);
  Object.assign(target, next);
  reindexEvent(state.storageEvents, target, before);
  if (next.bytes === undefined) delete target.bytes;
  if (next.count === undefined) delete target.count;
  ctx.sim.store.save();
  return ctx.sim.answers.storage.eventWrite();
}

function deleteEvent(ctx: RouteContext) {
  const { target } = targetOf(ctx);
  const state = ctx.sim.store.state;
  state.storageEvents = state.storageEvents.filter((e) => e !== target);
  ctx.sim.store.save();
  return ctx.sim.answers.storage.eventWrite();
}

function listEvents(ctx: RouteContext) {
  return ok(ctx.sim.answers.storage.eventList(listView(ctx.sim.store.state)));
}

function configurator() {
  return ok({
    structure: EVENT_NAMES.map((name) => ({
      name,
      fields: [
        { name: "storage_name", type: "string" },
        { name: "bucket_name", type: "string" },
        { name: EVENT_LIMIT_KIND[name] ?? "bytes", type: "uint64" },
      ],
    })),
  });
}

/** Storage notification routes. */
export const storageRoutes: Route[] = [
  { method: "POST", pattern: /^\/storage\/notifications\/v1\/event\/?$/, handler: createEvent },
  { method: "PUT", pattern: /^\/storage\/notifications\/v1\/event\/?$/, handler: updateEvent },
  { method: "DELETE", pattern: /^\/storage\/notifications\/v1\/event\/?$/, handler: deleteEvent },
  { method: "GET", pattern: /^\/storage\/notifications\/v1\/events\/?$/, handler: listEvents },
  { method: "GET", pattern: /^\/storage\/notifications\/v1\/events\/configurator\/?$/, handler: configurator },
];
