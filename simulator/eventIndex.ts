/**
 * Lookup tables over `state.storageEvents`: by uuid and by identity (name, storage, bucket,
 * client id).
 *
 * Why: a create checks the identity for a clash and an update or delete finds its event; a scan
 * per request makes a run of N creates against N events cost N² comparisons. The tables are
 * cached per events array and rebuilt when the array was replaced or changed length behind their
 * back (admin delete, bulk seeding, reset, reload), so a route that forgets to report a change
 * costs a rebuild, never a wrong answer about presence. Routes that change an event's identity
 * in place report it with `reindexEvent`.
 */
import type { StoredEvent } from "./state";

interface EventTables {
  length: number;
  byUuid: Map<string, StoredEvent>;
  byIdentity: Map<string, StoredEvent>;
}

const tables = new WeakMap<StoredEvent[], EventTables>();

/** The identity key of an event (what makes two events the same event). */
export function identityKey(name: string, storage?: string, bucket?: string, clientId?: number): string {
  return JSON.stringify([name, storage ?? "", bucket ?? "", clientId ?? null]);
}

function keyOf(e: StoredEvent): string {
  return identityKey(e.name, e.storage_name, e.bucket_name, e.client_id);
}

function build(events: StoredEvent[]): EventTables {
  const t: EventTables = { length: events.length, byUuid: new Map(), byIdentity: new Map() };
  for (const e of events) {
    if (!t.byUuid.has(e.uuid)) t.byUuid.set(e.uuid, e);
    const key = keyOf(e);
    if (!t.byIdentity.has(key)) t.byIdentity.set(key, e);
  }
  tables.set(events, t);
  return t;
}

function current(events: StoredEvent[]): EventTables {
  const t = tables.get(events);
  return t && t.length === events.length ? t : build(events);
}

/** The event with that uuid (the first one, should a seed hold duplicates). */
export function eventByUuid(events: StoredEvent[], uuid: string): StoredEvent | undefined {
  const hit = current(events).byUuid.get(uuid);
  if (hit && hit.uuid !== uuid) return build(events).byUuid.get(uuid);
  return hit;
}

/** The event with that identity (the first one, should a seed hold duplicates). */
export function eventByIdentity(events: StoredEvent[], name: string, storage?: string, bucket?: string, clientId?: number): StoredEvent | undefined {
  const key = identityKey(name, storage, bucket, clientId);
  const hit = current(events).byIdentity.get(key);
  // An event changed in place without `reindexEvent` (a failed half-applied patch): rebuild.
  if (hit && keyOf(hit) !== key) return build(events).byIdentity.get(key);
  return hit;
}

/** Appends an event and indexes it without a rebuild. */
export function addEvent(events: StoredEvent[], e: StoredEvent): void {
  const t = current(events);
  events.push(e);
  t.length = events.length;
  if (!t.byUuid.has(e.uuid)) t.byUuid.set(e.uuid, e);
  const key = keyOf(e);
  if (!t.byIdentity.has(key)) t.byIdentity.set(key, e);
}

/** Re-keys an event whose identity fields are about to change (`before` is its old identity key). */
export function reindexEvent(events: StoredEvent[], e: StoredEvent, before: string): void {
  const t = current(events);
  if (t.byIdentity.get(before) === e) t.byIdentity.delete(before);
  const key = keyOf(e);
  if (!t.byIdentity.has(key)) t.byIdentity.set(key, e);
}

/** The identity key of a stored event (to pass to `reindexEvent` after changing it). */
export function eventIdentityKey(e: StoredEvent): string {
  return keyOf(e);
}
