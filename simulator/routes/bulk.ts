/**
 * `POST /__admin/bulk`: creates thousands of events, instances and tasks in one call
 * (CONTRACT.md "Admin API").
 *
 * Why: benches and scale tests need 10,000 objects; creating them through the public API costs
 * 10,000 requests (and fills the request log), and a seed file of that size is awkward to keep.
 * Each kind is `{total, template}`; `{i}` in a top-level string of the template becomes the
 * item's number (0-based), so identities stay distinct. Everything is checked before anything
 * is added, so a bad call changes nothing.
 */
import { randomUUID } from "crypto";
import { simpleError } from "../errors";
import { addEvent, eventByIdentity, identityKey } from "../eventIndex";
import type { RouteContext } from "../router";
import { ok } from "../routeResult";
import { Instance, isObject, JsonObject, StoredEvent, TaskRecord } from "../state";
import { CREATED_RESOURCE_KEYS } from "../tasks";
import { EVENT_LIMIT_KIND, EVENT_NAMES } from "./storage";

/** Most objects of one kind a single bulk call may create. */
export const BULK_MAX = 100000;

interface Spec {
  total: number;
  template: JsonObject;
}

function spec(b: Record<string, unknown>, key: string): Spec | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (!isObject(v) || typeof v.total !== "number" || !Number.isInteger(v.total) || v.total < 0 || v.total > BULK_MAX) {
    throw simpleError(400, `${key} must be {total: integer 0..${BULK_MAX}, template?: object}`);
  }
  if (v.template !== undefined && !isObject(v.template)) throw simpleError(400, `${key}.template must be an object`);
  return { total: v.total, template: (v.template as JsonObject | undefined) ?? {} };
}

/** The template for item `i`: `{i}` replaced in top-level strings. */
function instantiate(template: JsonObject, i: number): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(template)) out[k] = typeof v === "string" ? v.split("{i}").join(String(i)) : v;
  return out;
}

function optInt(t: JsonObject, key: string, what: string): number | undefined {
  const v = t[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw simpleError(400, `${what}.${key} must be a non-negative integer`);
  return v;
}

function optStr(t: JsonObject, key: string, what: string): string | undefined {
  const v = t[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw simpleError(400, `${what}.${key} must be a string`);
  return v;
}

function buildEvents(s: Spec, existing: StoredEvent[]): StoredEvent[] {
  const out: StoredEvent[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < s.total; i++) {
    const t = instantiate(s.template, i);
    const name = optStr(t, "name", "storageEvents.template") ?? "reaching_used_space";
    const kind = EVENT_LIMIT_KIND[name];
    if (kind === undefined) throw simpleError(400, `storageEvents.template.name must be one of ${EVENT_NAMES.join(", ")}`);
    const e: StoredEvent = { uuid: randomUUID(), name };
    const storage = optStr(t, "storage_name", "storageEvents.template") ?? `bulk-storage-${i}`;
    const bucket = optStr(t, "bucket_name", "storageEvents.template");
    const limit = optInt(t, kind, "storageEvents.template") ?? 1;
    const clientId = optInt(t, "client_id", "storageEvents.template");
    e.storage_name = storage;
    if (bucket !== undefined) e.bucket_name = bucket;
    e[kind] = limit;
    if (clientId !== undefined) e.client_id = clientId;
    const key = identityKey(name, storage, bucket, clientId);
    if (seen.has(key) || eventByIdentity(existing, name, storage, bucket, clientId)) {
      throw simpleError(409, `storageEvents item ${i}: an event ${name} for storage ${JSON.stringify(storage)} bucket ${JSON.stringify(bucket ?? "")} already exists (put {i} in storage_name)`);
    }
    seen.add(key);
    out.push(e);
  }
  return out;
}

function buildInstances(s: Spec, now: number): Instance[] {
  const out: Instance[] = [];
  for (let i = 0; i < s.total; i++) {
    const t = instantiate(s.template, i);
    const projectId = optInt(t, "project_id", "instances.template") ?? 1;
    const regionId = optInt(t, "region_id", "instances.template") ?? 76;
    out.push({
      flavor: { flavor_id: "g1-standard-1-2", flavor_name: "g1-standard-1-2", vcpus: 1, ram: 2048 },
      volumes: [],
      tags: [],
      addresses: {},
      vm_state: "active",
      instance_description: null,
      security_groups: [],
      ssh_key_name: null,
      creator_task_id: null,
      task_state: null,
      task_id: null,
      blackhole_ports: [],
      ddos_profile: null,
      fixed_ip_assignments: [],
      instance_isolation: null,
      created_at: new Date(now + i * 1000).toISOString().slice(0, 19),
      ...t,
      id: randomUUID(),
      name: optStr(t, "name", "instances.template") ?? `bulk-vm-${i}`,
      project_id: projectId,
      region_id: regionId,
      status: optStr(t, "status", "instances.template") ?? "ACTIVE",
    });
  }
  return out;
}

/** Tasks that have already ended (FINISHED, or ERROR when the template gives `error`), 1 ms apart. */
function buildTasks(s: Spec, now: number, client: JsonObject): TaskRecord[] {
  const out: TaskRecord[] = [];
  const clientId = typeof client.id === "number" ? client.id : 0;
  const userId = typeof client.currentUser === "number" ? client.currentUser : 0;
  const start = now - s.total - 60000;
  for (let i = 0; i < s.total; i++) {
    const t = instantiate(s.template, i);
    const createdResources: Record<string, string[]> = {};
    for (const key of CREATED_RESOURCE_KEYS) createdResources[key] = [];
    const createdAt = start + i;
    out.push({
      id: randomUUID(),
      task_type: optStr(t, "task_type", "tasks.template") ?? "create_vm",
      project_id: optInt(t, "project_id", "tasks.template") ?? 1,
      region_id: optInt(t, "region_id", "tasks.template") ?? 76,
      createdAt,
      runAt: createdAt,
      doneAt: createdAt,
      error: optStr(t, "error", "tasks.template") ?? null,
      createdResources,
      data: null,
      request_id: null,
      user_id: userId,
      client_id: clientId,
      applied: true,
    });
  }
  return out;
}

/** Handler of `POST /__admin/bulk`. */
export function bulkCreate(ctx: RouteContext) {
  if (!isObject(ctx.body)) throw simpleError(400, "body must be a JSON object");
  const b = ctx.body;
  const unknown = Object.keys(b).filter((k) => !["storageEvents", "instances", "tasks"].includes(k));
  if (unknown.length > 0) throw simpleError(400, `unknown bulk kind ${unknown.join(", ")}; allowed: storageEvents, instances, tasks`);
  const state = ctx.sim.store.state;
  const now = ctx.sim.clock.now();
  const eventSpec = spec(b, "storageEvents");
  const instanceSpec = spec(b, "instances");
  const taskSpec = spec(b, "tasks");
  const events = eventSpec ? buildEvents(eventSpec, state.storageEvents) : [];
  const instances = instanceSpec ? buildInstances(instanceSpec, now) : [];
  const tasks = taskSpec ? buildTasks(taskSpec, now, state.client) : [];
  for (const e of events) addEvent(state.storageEvents, e);
  for (const i of instances) state.instances.push(i);
  for (const t of tasks) state.tasks.push(t);
  ctx.sim.store.save();
  return ok({ created: { storageEvents: events.length, instances: instances.length, tasks: tasks.length } });
}
