/**
 * Admin API under `/__admin` (CONTRACT.md "Admin API"): no auth, never in the request log.
 *
 * Tests and demos use it to change the world out of band (a cluster upgraded elsewhere, an event
 * deleted in the portal), to inject faults (latency, 5xx, resets, 429 bursts, malformed answers,
 * failing tasks) and to inspect what the client actually sent.
 */
import { nonNegativeInteger, objectBody } from "../adminBody";
import { ANSWER_SHAPERS } from "../answers";
import type { SimContext } from "../context";
import { DIALECTS, isDialect } from "../dialect";
import { simpleError } from "../errors";
import { eventByUuid, eventIdentityKey, reindexEvent } from "../eventIndex";
import { parseFaultConfig } from "../faults";
import { COMPUTED_QUOTAS } from "../quotas";
import type { Route, RouteContext } from "../router";
import { noContent, ok } from "../routeResult";
import { isObject, type Cluster, type JsonObject, type PoolHealthRule } from "../state";
import { TASK_STATES } from "../tasks";
import { bulkCreate } from "./bulk";
import { parseVersion } from "./k8s";
import { EVENT_LIMIT_KIND, eventView } from "./storage";

function body(ctx: RouteContext): JsonObject {
  return objectBody(ctx.body);
}

/** The cluster an admin path names, or 404. */
function adminCluster(ctx: RouteContext): Cluster {
  const projectId = Number(ctx.params.project_id);
  const regionId = Number(ctx.params.region_id);
  const c = ctx.sim.store.state.clusters.find((x) => x.project_id === projectId && x.region_id === regionId && x.name === ctx.params.name);
  if (!c) throw simpleError(404, `cluster ${ctx.params.name ?? ""} not found in project ${projectId} region ${regionId}`);
  return c;
}

function patchCluster(ctx: RouteContext) {
  const b = body(ctx);
  const c = adminCluster(ctx);
  if (b.version !== undefined) {
    if (typeof b.version !== "string" || !parseVersion(b.version)) throw simpleError(400, "version must look like v1.2.3");
    c.version = b.version;
  }
  if (b.status !== undefined) {
    if (typeof b.status !== "string") throw simpleError(400, "status must be a string");
    c.status = b.status;
  }
  ctx.sim.store.save();
  return ok(c);
}

/**
 * `PUT /__admin/quotas/{project_id}` `{vm_count?, cpu_count?, ram?}`: the project's limits,
 * replacing the ones it had (a quota left out is unlimited).
 */
function putQuota(ctx: RouteContext) {
  const b = body(ctx);
  const limits: Record<string, number> = {};
  for (const key of Object.keys(b)) {
    if (!(COMPUTED_QUOTAS as readonly string[]).includes(key)) throw simpleError(400, `unknown quota ${key}; the simulator computes ${COMPUTED_QUOTAS.join(", ")}`);
    const limit = nonNegativeInteger(b, key);
    if (limit !== undefined) limits[key] = limit;
  }
  ctx.sim.store.state.quotas[ctx.params.project_id ?? ""] = limits;
  ctx.sim.store.save();
  return ok(ctx.sim.store.state.quotas);
}

/**
 * `POST /__admin/clusters/{project_id}/{region_id}/{name}/pools/{pool}/unhealthy`
 * `{status?, node_count?, after_upgrade?, after_reads?}`: the pool turns unhealthy (`poolHealth.ts`).
 */
function unhealthyPool(ctx: RouteContext) {
  const b = body(ctx);
  const c = adminCluster(ctx);
  const pool = ctx.params.pool ?? "";
  if (!c.pools.some((p) => p.name === pool)) throw simpleError(404, `pool ${pool} not found in cluster ${c.name}`);
  const status = b.status ?? "Error";
  if (typeof status !== "string" || status === "") throw simpleError(400, "status must be a non-empty string");
  const nodeCount = b.node_count ?? null;
  if (nodeCount !== null && (typeof nodeCount !== "number" || !Number.isInteger(nodeCount) || nodeCount < 0)) throw simpleError(400, "node_count must be a non-negative integer");
  const afterReads = b.after_reads ?? 0;
  if (typeof afterReads !== "number" || !Number.isInteger(afterReads) || afterReads < 0) throw simpleError(400, "after_reads must be a non-negative integer");
  if (b.after_upgrade !== undefined && typeof b.after_upgrade !== "boolean") throw simpleError(400, "after_upgrade must be true or false");
  const rule: PoolHealthRule = {
    project_id: c.project_id,
    region_id: c.region_id,
    cluster: c.name,
    pool,
    status,
    node_count: nodeCount,
    armed: b.after_upgrade === false,
    reads_left: afterReads,
  };
  ctx.sim.store.state.poolHealth.push(rule);
  ctx.sim.store.save();
  return ok({ poolHealth: ctx.sim.store.state.poolHealth });
}

function deleteEvent(ctx: RouteContext) {
  const state = ctx.sim.store.state;
  const before = state.storageEvents.length;
  state.storageEvents = state.storageEvents.filter((e) => e.uuid !== ctx.params.uuid);
  if (state.storageEvents.length === before) throw simpleError(404, `event ${ctx.params.uuid ?? ""} not found`);
  ctx.sim.store.save();
  return noContent();
}

function patchEvent(ctx: RouteContext) {
  const b = body(ctx);
  const events = ctx.sim.store.state.storageEvents;
  const e = eventByUuid(events, ctx.params.uuid ?? "");
  if (!e) throw simpleError(404, `event ${ctx.params.uuid ?? ""} not found`);
  const before = eventIdentityKey(e);
  try {
    for (const key of ["name", "storage_name", "bucket_name"] as const) {
      const v = b[key];
      if (v === undefined) continue;
      if (typeof v !== "string") throw simpleError(400, `${key} must be a string`);
      if (key === "name" && !(v in EVENT_LIMIT_KIND)) throw simpleError(400, `unknown event name ${v}`);
      e[key] = v;
    }
    for (const key of ["bytes", "count"] as const) {
      const v = b[key];
      if (v === undefined) continue;
      if (v === null) delete e[key];
      else if (typeof v === "number" && Number.isInteger(v) && v >= 0) e[key] = v;
      else throw simpleError(400, `${key} must be a non-negative integer or null`);
    }
  } finally {
    reindexEvent(events, e, before);
  }
  ctx.sim.store.save();
  return ok(eventView(e));
}

function setFaults(ctx: RouteContext) {
  ctx.sim.faults.set(parseFaultConfig(body(ctx)));
  return ok({ faults: ctx.sim.faults.get() });
}

/** Rules the admin API adds one at a time from a body, lists and clears. */
interface RuleSet<R> {
  add(body: JsonObject): R;
  list(): R[];
  clear(): void;
}

/**
 * `GET`, `POST` and `DELETE /__admin/<path>` of one rule set: `{<key>: rules}`; add one (the
 * answer leads with the new `rule` when `echoRule`); remove them all.
 */
function ruleRoutes<R>(path: string, key: string, rulesOf: (sim: SimContext) => RuleSet<R>, echoRule: boolean): Route[] {
  const pattern = new RegExp(`^/__admin/${path}/?$`);
  const add = (ctx: RouteContext) => {
    const rules = rulesOf(ctx.sim);
    const rule = rules.add(body(ctx));
    return ok(echoRule ? { rule, [key]: rules.list() } : { [key]: rules.list() });
  };
  const clear = (ctx: RouteContext) => {
    rulesOf(ctx.sim).clear();
    return noContent();
  };
  return [
    { method: "GET", pattern, handler: (ctx) => ok({ [key]: rulesOf(ctx.sim).list() }) },
    { method: "POST", pattern, handler: add },
    { method: "DELETE", pattern, handler: clear },
  ];
}

function failNext(ctx: RouteContext) {
  const b = body(ctx);
  if (typeof b.task_type !== "string" || b.task_type === "") throw simpleError(400, "task_type is required");
  const error = typeof b.error === "string" && b.error !== "" ? b.error : "Simulated failure";
  ctx.sim.store.state.failNext.push({ task_type: b.task_type, error });
  ctx.sim.store.save();
  return ok({ failNext: ctx.sim.store.state.failNext });
}

function finishTask(ctx: RouteContext) {
  const t = ctx.sim.tasks.get(ctx.params.id ?? "");
  if (!t) throw simpleError(404, `task ${ctx.params.id ?? ""} not found`);
  ctx.sim.tasks.finishNow(t);
  ctx.sim.store.save();
  return ok(ctx.sim.tasks.view(t));
}

/** Creates an arbitrary task (for waiter tests of task types no public route starts). */
function createTask(ctx: RouteContext) {
  const b = body(ctx);
  if (typeof b.task_type !== "string" || b.task_type === "") throw simpleError(400, "task_type is required");
  const t = ctx.sim.tasks.create({
    task_type: b.task_type,
    project_id: typeof b.project_id === "number" ? b.project_id : null,
    region_id: typeof b.region_id === "number" ? b.region_id : null,
    error: typeof b.error === "string" ? b.error : null,
    data: isObject(b.data) ? b.data : null,
    createdResources: isObject(b.created_resources) ? (b.created_resources as Record<string, string[]>) : {},
  });
  ctx.sim.store.save();
  return ok({ tasks: [t.id], task: ctx.sim.tasks.view(t) });
}

/**
 * `POST /__admin/dialect` `{dialect}`: switches how answers are shaped (CONTRACT.md "Dialects")
 * without a restart, so one simulator can serve a suite in both dialects.
 */
function setDialect(ctx: RouteContext) {
  const dialect = isObject(ctx.body) ? ctx.body.dialect : undefined;
  if (!isDialect(dialect)) throw simpleError(400, `dialect must be one of: ${DIALECTS.join(", ")}`);
  ctx.sim.answers = ANSWER_SHAPERS[dialect];
  return ok({ dialect });
}

function getState(ctx: RouteContext) {
  const now = ctx.sim.clock.now();
  const s = ctx.sim.store.state;
  return ok({ ...s, tasks: s.tasks.map((t) => ctx.sim.tasks.view(t, now)), taskStates: TASK_STATES });
}

/** Admin routes. */
export const adminRoutes: Route[] = [
  {
    method: "GET",
    pattern: /^\/__admin\/requests\/?$/,
    handler: (ctx) => ok({ requests: ctx.sim.requestLog.list(), inFlight: ctx.sim.requestLog.inFlight() }),
  },
  {
    method: "DELETE",
    pattern: /^\/__admin\/requests\/?$/,
    handler: (ctx) => {
      ctx.sim.requestLog.clear();
      return noContent();
    },
  },
  {
    method: "POST",
    pattern: /^\/__admin\/reset\/?$/,
    handler: (ctx) => {
      ctx.sim.reset();
      return ok({ reset: true });
    },
  },
  { method: "GET", pattern: /^\/__admin\/state\/?$/, handler: getState },
  { method: "GET", pattern: /^\/__admin\/dialect\/?$/, handler: (ctx) => ok({ dialect: ctx.sim.answers.dialect }) },
  { method: "POST", pattern: /^\/__admin\/dialect\/?$/, handler: setDialect },
  { method: "POST", pattern: /^\/__admin\/bulk\/?$/, handler: bulkCreate },
  { method: "PATCH", pattern: /^\/__admin\/clusters\/(?<project_id>\d+)\/(?<region_id>\d+)\/(?<name>[^/]+)\/?$/, handler: patchCluster },
  {
    method: "POST",
    pattern: /^\/__admin\/clusters\/(?<project_id>\d+)\/(?<region_id>\d+)\/(?<name>[^/]+)\/pools\/(?<pool>[^/]+)\/unhealthy\/?$/,
    handler: unhealthyPool,
  },
  { method: "PUT", pattern: /^\/__admin\/quotas\/(?<project_id>\d+)\/?$/, handler: putQuota },
  { method: "DELETE", pattern: /^\/__admin\/events\/(?<uuid>[^/]+)\/?$/, handler: deleteEvent },
  { method: "PATCH", pattern: /^\/__admin\/events\/(?<uuid>[^/]+)\/?$/, handler: patchEvent },
  { method: "GET", pattern: /^\/__admin\/faults\/?$/, handler: (ctx) => ok({ faults: ctx.sim.faults.get() }) },
  { method: "POST", pattern: /^\/__admin\/faults\/?$/, handler: setFaults },
  {
    method: "DELETE",
    pattern: /^\/__admin\/faults\/?$/,
    handler: (ctx) => {
      ctx.sim.faults.clear();
      ctx.sim.malformed.clear();
      return noContent();
    },
  },
  ...ruleRoutes("malformed", "malformed", (sim) => sim.malformed, true),
  ...ruleRoutes("unserved", "unserved", (sim) => sim.unserved, false),
  ...ruleRoutes("list-shifts", "listShifts", (sim) => sim.listShifts, true),
  { method: "POST", pattern: /^\/__admin\/tasks\/fail-next\/?$/, handler: failNext },
  { method: "POST", pattern: /^\/__admin\/tasks\/?$/, handler: createTask },
  { method: "POST", pattern: /^\/__admin\/tasks\/(?<id>[^/]+)\/finish\/?$/, handler: finishTask },
];
