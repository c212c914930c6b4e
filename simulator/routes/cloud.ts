/**
 * Cloud routes: tasks, projects, regions, instances (spec "Endpoints").
 *
 * Invalid query values answer 400 `ValidationError` with `invalid_fields` (the error shape of
 * the cloud API), so clients can test their error mapping; unknown projects or regions
 * answer 404 `NotFoundError`.
 */
import { cloudError } from "../errors";
import type { Route, RouteContext } from "../router";
import { ok } from "../routeResult";
import { Instance, JsonObject, Region } from "../state";
import { TASK_STATES, TaskState } from "../tasks";

/**
 * Collects query validation errors and throws one 400 with all of them.
 *
 * Why: the cloud API reports every invalid field at once in `invalid_fields`.
 */
export class CloudQuery {
  private readonly ctx: RouteContext;
  private readonly invalid: Record<string, string[]> = {};

  constructor(ctx: RouteContext) {
    this.ctx = ctx;
  }

  private fail(name: string, message: string): void {
    (this.invalid[name] ??= []).push(message);
  }

  /** Integer parameter with default and bounds. */
  int(name: string, def: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.ctx.query.get(name);
    if (raw === null) return def;
    if (!/^-?\d+$/.test(raw)) {
      this.fail(name, "Not a valid integer.");
      return def;
    }
    const n = Number(raw);
    if (n < min || n > max) {
      this.fail(name, max === Number.MAX_SAFE_INTEGER ? `Must be greater than or equal to ${min}.` : `Must be greater than or equal to ${min} and less than or equal to ${max}.`);
      return def;
    }
    return n;
  }

  /** Repeatable integer parameter (`key=1&key=2`). */
  ints(name: string): number[] {
    const out: number[] = [];
    for (const raw of this.ctx.query.getAll(name)) {
      if (!/^\d+$/.test(raw)) this.fail(name, `Not a valid integer: ${raw}.`);
      else out.push(Number(raw));
    }
    return out;
  }

  /** Enumerated parameter (single). */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const raw = this.ctx.query.get(name);
    if (raw === null) return undefined;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.fail(name, `Must be one of: ${allowed.join(", ")}.`);
      return undefined;
    }
    return raw as T;
  }

  /** Repeatable enumerated parameter. */
  manyOf<T extends string>(name: string, allowed: readonly T[]): T[] {
    const out: T[] = [];
    for (const raw of this.ctx.query.getAll(name)) {
      if (!(allowed as readonly string[]).includes(raw)) this.fail(name, `Must be one of: ${allowed.join(", ")}.`);
      else out.push(raw as T);
    }
    return out;
  }

  /** Boolean parameter (`true`/`false`, also 1/0). */
  bool(name: string, def: boolean): boolean {
    const raw = this.ctx.query.get(name);
    if (raw === null) return def;
    const v = raw.toLowerCase();
    if (v === "true" || v === "1") return true;
    if (v === "false" || v === "0") return false;
    this.fail(name, "Not a valid boolean.");
    return def;
  }

  /** ISO 8601 date-time parameter, as epoch ms. */
  dateTime(name: string): number | undefined {
    const raw = this.ctx.query.get(name);
    if (raw === null) return undefined;
    const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`;
    const t = Date.parse(withZone);
    if (Number.isNaN(t)) {
      this.fail(name, "Not a valid datetime.");
      return undefined;
    }
    return t;
  }

  /** `limit` (1..1000, `defaultLimit` when absent) and `offset` of an offset-paged list. */
  page(defaultLimit: number): { limit: number; offset: number } {
    return { limit: this.int("limit", defaultLimit, 1, 1000), offset: this.int("offset", 0, 0) };
  }

  /** Throws the collected 400, if any. */
  done(): void {
    if (Object.keys(this.invalid).length > 0) {
      const fields = Object.keys(this.invalid).join(", ");
      throw cloudError(400, "ValidationError", `Invalid query parameters: ${fields}`, this.ctx.requestId, {
        invalid_fields: this.invalid,
      });
    }
  }
}

/** Slices a list for limit/offset paging and wraps it as `{count, results}` (count = total). */
export function page<T>(items: readonly T[], limit: number, offset: number): { count: number; results: T[] } {
  return { count: items.length, results: items.slice(offset, offset + limit) };
}

/** The project and region a `/{project_id}/{region_id}` path names. */
export interface Scope {
  projectId: number;
  regionId: number;
}

/** The ids of a `/{project_id}/{region_id}` path, 404 when one is not a number (it names nothing). */
export function scopeOf(ctx: RouteContext): Scope {
  return { projectId: intParam(ctx, "project_id", "Project"), regionId: intParam(ctx, "region_id", "Region") };
}

/** The scope, or 404 when its project (deleted ones count as missing) or region does not exist. */
export function requireScope(ctx: RouteContext, scope: Scope): Scope {
  if (!ctx.sim.store.state.projects.some((x) => x.id === scope.projectId && x.state !== "DELETED")) {
    throw cloudError(404, "NotFoundError", `Project ${scope.projectId} could not be found`, ctx.requestId);
  }
  requireRegion(ctx, scope.regionId);
  return scope;
}

function intParam(ctx: RouteContext, name: string, what: string): number {
  const raw = ctx.params[name] ?? "";
  if (!/^\d+$/.test(raw)) throw cloudError(404, "NotFoundError", `${what} ${raw} could not be found`, ctx.requestId);
  return Number(raw);
}

/** Every region the list shows: the state's, plus the dialect's extra ones (`extraRegions`). */
function allRegions(ctx: RouteContext): Region[] {
  const regions = ctx.sim.store.state.regions;
  const extra = ctx.sim.answers.cloud.extraRegions(regions);
  return extra.length ? [...regions, ...extra] : regions;
}

/** 404 unless the region list shows that region. */
function requireRegion(ctx: RouteContext, id: number): void {
  if (!allRegions(ctx).some((x) => x.id === id)) throw cloudError(404, "NotFoundError", `Region ${id} could not be found`, ctx.requestId);
}

function getTask(ctx: RouteContext) {
  const id = ctx.params.task_id ?? "";
  const task = ctx.sim.tasks.get(id);
  if (!task) throw cloudError(404, "NotFoundError", `Task ${id} could not be found`, ctx.requestId);
  return ok(ctx.sim.answers.cloud.task(ctx.sim.tasks.view(task)));
}

/**
 * The cluster upgrade's two names (CONTRACT.md "Tasks"): the spec's `upgrade_k8s_cluster`, which
 * the simulator's upgrade task reports, and `upgrade_k8s_cluster_v2`, the only upgrade value in
 * the public OpenAPI's list of `task_type` filter values. Either filter value finds either name.
 */
const SAME_TASK_TYPE: ReadonlyMap<string, string> = new Map([
  ["upgrade_k8s_cluster", "upgrade_k8s_cluster_v2"],
  ["upgrade_k8s_cluster_v2", "upgrade_k8s_cluster"],
]);

function taskTypeMatches(filter: string, type: string): boolean {
  return type === filter || SAME_TASK_TYPE.get(filter) === type;
}

function listTasks(ctx: RouteContext) {
  const q = new CloudQuery(ctx);
  const projectIds = q.ints("project_id");
  const regionIds = q.ints("region_id");
  const states = q.manyOf<TaskState>("state", TASK_STATES);
  const taskType = ctx.query.get("task_type");
  const { limit, offset } = q.page(10);
  const orderBy = q.oneOf("order_by", ["asc", "desc"] as const) ?? q.oneOf("sorting", ["asc", "desc"] as const) ?? "desc";
  const from = q.dateTime("from_timestamp");
  const to = q.dateTime("to_timestamp");
  const ackRaw = ctx.query.get("is_acknowledged");
  const isAck = ackRaw === null ? undefined : q.bool("is_acknowledged", false);
  q.done();
  const engine = ctx.sim.tasks;
  const now = ctx.sim.clock.now();
  let tasks = ctx.sim.store.state.tasks.filter((t) => {
    if (projectIds.length && (t.project_id === null || !projectIds.includes(t.project_id))) return false;
    if (regionIds.length && (t.region_id === null || !regionIds.includes(t.region_id))) return false;
    if (states.length && !states.includes(engine.stateOf(t, now))) return false;
    if (taskType !== null && !taskTypeMatches(taskType, t.task_type)) return false;
    if (from !== undefined && t.createdAt < from) return false;
    if (to !== undefined && t.createdAt > to) return false;
    if (isAck === true) return false; // tasks are never acknowledged in the simulator
    return true;
  });
  tasks = [...tasks].sort((a, b) => (orderBy === "asc" ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
  const { cloud } = ctx.sim.answers;
  const p = page(tasks, cloud.pageSize(limit), offset);
  const views = { count: p.count, results: p.results.map((t) => engine.view(t, now)) };
  return ok(cloud.list(views, offset, cloud.task));
}

function listProjects(ctx: RouteContext) {
  const q = new CloudQuery(ctx);
  const { limit, offset } = q.page(100);
  const includeDeleted = q.bool("include_deleted", false);
  const orderBy = q.oneOf("order_by", ["created_at.asc", "created_at.desc", "name.asc", "name.desc"] as const);
  const name = ctx.query.get("name");
  q.done();
  let projects = ctx.sim.store.state.projects.filter(
    (p) => (includeDeleted || p.state !== "DELETED") && (name === null || p.name === name),
  );
  if (orderBy) projects = sortBy(projects, orderBy);
  const { cloud } = ctx.sim.answers;
  return ok(cloud.list(page(projects, cloud.pageSize(limit), offset), offset));
}

function listRegions(ctx: RouteContext) {
  const q = new CloudQuery(ctx);
  const { limit, offset } = q.page(100);
  const orderBy = q.oneOf("order_by", ["created_at.asc", "created_at.desc", "display_name.asc", "display_name.desc"] as const);
  const product = q.oneOf("product", ["containers", "inference"] as const);
  const showVolumeTypes = q.bool("show_volume_types", false);
  const displayName = ctx.query.get("display_name");
  q.done();
  let regions = allRegions(ctx).filter(
    (r) => displayName === null || r.display_name.toLowerCase() === displayName.toLowerCase(),
  );
  if (product) regions = regions.filter((r) => r[product === "inference" ? "has_ai" : "has_basic_vm"] === true);
  if (orderBy) regions = sortBy(regions, orderBy);
  const { cloud } = ctx.sim.answers;
  const p = page(regions, cloud.pageSize(limit), offset);
  if (showVolumeTypes) {
    p.results = p.results.map((r) => (r.available_volume_types === null ? { ...r, available_volume_types: ["standard"] } : r));
  }
  return ok(cloud.regionPage(p, offset));
}

/**
 * The `status` filter's values: the public OpenAPI's `InstanceStatusQuery` (cloud_api.yaml), not
 * every status an instance reports (DELETED, PASSWORD, RESCUE and UNKNOWN are not among them).
 */
const INSTANCE_STATUS_QUERY = [
  "ACTIVE", "BUILD", "ERROR", "HARD_REBOOT", "MIGRATING", "PAUSED", "REBOOT", "REBUILD", "RESIZE", "REVERT_RESIZE",
  "SHELVED", "SHELVED_OFFLOADED", "SHUTOFF", "SOFT_DELETED", "SUSPENDED", "VERIFY_RESIZE",
] as const;

function listInstances(ctx: RouteContext) {
  const scope = scopeOf(ctx);
  const q = new CloudQuery(ctx);
  const { limit, offset } = q.page(1000);
  const status = q.oneOf("status", INSTANCE_STATUS_QUERY);
  const orderBy = q.oneOf("order_by", ["created.asc", "created.desc", "name.asc", "name.desc", "status.asc", "status.desc"] as const);
  q.done();
  const { projectId, regionId } = requireScope(ctx, scope);
  const name = ctx.query.get("name");
  const uuid = ctx.query.get("uuid");
  let instances: Instance[] = ctx.sim.store.state.instances.filter(
    (i) =>
      i.project_id === projectId &&
      i.region_id === regionId &&
      (name === null || i.name.includes(name)) &&
      (uuid === null || i.id === uuid) &&
      (status === undefined || i.status === status),
  );
  if (orderBy) instances = sortBy(instances, orderBy.replace("created", "created_at") as `${string}.${"asc" | "desc"}`);
  const { cloud } = ctx.sim.answers;
  return ok(cloud.list(page(instances, cloud.pageSize(limit), offset), offset, cloud.instance));
}

/**
 * One collator for every sort: `String.prototype.localeCompare` builds one per call, seconds
 * for sorting 10,000 items; a shared one gives the same order.
 */
const collator = new Intl.Collator();

/** Sorts by `field.asc|desc` on a string or number field. */
function sortBy<T extends JsonObject>(items: T[], spec: `${string}.${"asc" | "desc"}`): T[] {
  const [field = "", dir] = spec.split(".");
  const sign = dir === "desc" ? -1 : 1;
  return [...items].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    if (typeof x === "number" && typeof y === "number") return sign * (x - y);
    return sign * collator.compare(String(x ?? ""), String(y ?? ""));
  });
}

/** Cloud routes (tasks, projects, regions, instances). */
export const cloudRoutes: Route[] = [
  { method: "GET", pattern: /^\/cloud\/v1\/tasks\/?$/, handler: listTasks },
  { method: "GET", pattern: /^\/cloud\/v1\/tasks\/(?<task_id>[^/]+)\/?$/, handler: getTask },
  { method: "GET", pattern: /^\/cloud\/v1\/projects\/?$/, handler: listProjects },
  { method: "GET", pattern: /^\/cloud\/v1\/regions\/?$/, handler: listRegions },
  { method: "GET", pattern: /^\/cloud\/v1\/instances\/(?<project_id>[^/]+)\/(?<region_id>[^/]+)\/?$/, handler: listInstances },
];
