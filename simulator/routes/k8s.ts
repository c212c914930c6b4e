/**
 * Managed Kubernetes routes: list, get, upgrade_versions, upgrade (spec "Upgrade a cluster",
 * CONTRACT.md "Tasks").
 *
 * Rules enforced here because clients must cope with them:
 * - `upgrade_versions` is the newest patch of the next minor in the catalogue (empty at the newest);
 * - an upgrade to anything else is 400 `ValidationError` naming the permitted versions;
 * - while an upgrade task runs the cluster carries `task_id` (the lock) and a second upgrade is
 *   409 `ConflictError`;
 * - replacement nodes are created before old ones go, so the project's quota must hold a second
 *   pool of each pool's flavor and size (`quotas.ts`); otherwise the task ends in ERROR with
 *   `Quota limit for <quota> exceeded by <n>`; `POST .../pools/check_limits` answers the same
 *   question before anything is written;
 * - while the task runs, the pools show the rolling replacement one node at a time
 *   (`rollingReplacement.ts`);
 * - when the task FINISHES the cluster is `Provisioned` at the new version.
 */
import { cloudError } from "../errors";
import type { Route, RouteContext } from "../router";
import { ok } from "../routeResult";
import { applyOnRead, armAfterUpgrade } from "../poolHealth";
import { upgradeQuotaFailure } from "../quotas";
import { poolsDuring } from "../rollingReplacement";
import { Cluster, isObject, SimState, TaskRecord } from "../state";
import { TaskEngine } from "../tasks";
import { CloudQuery, page, requireScope, scopeOf } from "./cloud";
import { checkLimits } from "./k8sQuota";

/** Task type of a cluster upgrade, as the spec names it. */
export const UPGRADE_TASK_TYPE = "upgrade_k8s_cluster";

/** A parsed `v<major>.<minor>.<patch>` version. */
export interface K8sVersion {
  major: number;
  minor: number;
  patch: number;
}

/** Parses a Kubernetes version string; undefined when malformed. */
export function parseVersion(v: string): K8sVersion | undefined {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

/**
 * Versions a cluster at `current` may upgrade to: the newest patch of the next minor in the
 * catalogue, so one minor step at a time as the spec requires.
 */
export function upgradeTargets(catalogue: readonly string[], current: string): string[] {
  const cur = parseVersion(current);
  if (!cur) return [];
  let best: { v: string; p: K8sVersion } | undefined;
  for (const v of catalogue) {
    const p = parseVersion(v);
    if (!p || p.major !== cur.major || p.minor !== cur.minor + 1) continue;
    if (!best || p.patch > best.p.patch) best = { v, p };
  }
  return best ? [best.v] : [];
}

function findCluster(ctx: RouteContext): Cluster {
  const { projectId, regionId } = requireScope(ctx, scopeOf(ctx));
  const name = ctx.params.cluster_name ?? "";
  const c = clustersOf(ctx, projectId, regionId).find((x) => x.name === name);
  if (!c) throw cloudError(404, "NotFoundError", `Cluster ${name} could not be found`, ctx.requestId);
  return c;
}

/**
 * The clusters of a project and region: the state's, then the dialect's extra ones
 * (`extraClusters`, fresh objects each call, so nothing done to them persists).
 */
function clustersOf(ctx: RouteContext, projectId: number, regionId: number): Cluster[] {
  const clusters = ctx.sim.store.state.clusters.filter((c) => c.project_id === projectId && c.region_id === regionId);
  return [...clusters, ...ctx.sim.answers.k8s.extraClusters(projectId, regionId, clusters)];
}

/**
 * The cluster as the API shows it (internal project/region ids stay out of the body), before the
 * dialect shapes it: while its upgrade task runs, the pools as the rolling replacement has them.
 */
function view(ctx: RouteContext, c: Cluster): Record<string, unknown> {
  const { project_id: _p, region_id: _r, ...rest } = c;
  const task = c.task_id === null ? undefined : ctx.sim.tasks.get(c.task_id);
  if (!task || task.task_type !== UPGRADE_TASK_TYPE) return rest;
  const now = ctx.sim.clock.now();
  const progress = task.doneAt > task.runAt ? (now - task.runAt) / (task.doneAt - task.runAt) : 1;
  return { ...rest, pools: poolsDuring(c.pools, progress) };
}

/** Releases a stale lock whose task has ended (e.g. a task finished while no one was looking). */
function releaseStaleLock(ctx: RouteContext, c: Cluster): void {
  if (c.task_id === null) return;
  const t = ctx.sim.tasks.get(c.task_id);
  if (!t || !ctx.sim.tasks.isActive(t)) c.task_id = null;
}

function listClusters(ctx: RouteContext) {
  const scope = scopeOf(ctx);
  const q = new CloudQuery(ctx);
  const { limit, offset } = q.page(1000);
  q.done();
  const { projectId, regionId } = requireScope(ctx, scope);
  const clusters = clustersOf(ctx, projectId, regionId);
  clusters.forEach((c) => releaseStaleLock(ctx, c));
  const { cloud, k8s } = ctx.sim.answers;
  const p = page(clusters, cloud.pageSize(limit), offset);
  return ok(cloud.list({ count: p.count, results: p.results.map((c) => view(ctx, c)) }, offset, k8s.cluster));
}

function getCluster(ctx: RouteContext) {
  const c = findCluster(ctx);
  releaseStaleLock(ctx, c);
  if (applyOnRead(ctx.sim.store.state, c)) ctx.sim.store.save();
  return ok(ctx.sim.answers.k8s.cluster(view(ctx, c)));
}

function listUpgradeVersions(ctx: RouteContext) {
  const c = findCluster(ctx);
  const targets = upgradeTargets(ctx.sim.store.state.k8sVersions, c.version);
  const items = targets.map((version) => ({ version }));
  return ok(ctx.sim.answers.cloud.list({ count: items.length, results: items }, 0));
}

function upgrade(ctx: RouteContext) {
  const c = findCluster(ctx);
  releaseStaleLock(ctx, c);
  const body = ctx.body;
  if (!isObject(body) || typeof body.version !== "string" || body.version === "") {
    throw cloudError(400, "ValidationError", "Field 'version' is required and must be a string", ctx.requestId, {
      invalid_fields: { version: ["This field is required."] },
    });
  }
  if (c.task_id !== null) {
    throw cloudError(409, "ConflictError", `Cluster ${c.name} is locked by task ${c.task_id}; wait for it to finish`, ctx.requestId, {
      info: { task_id: c.task_id },
    });
  }
  const targets = upgradeTargets(ctx.sim.store.state.k8sVersions, c.version);
  if (!targets.includes(body.version)) {
    const permitted = targets.length ? `permitted versions: ${targets.join(", ")}` : "no upgrade is available";
    throw cloudError(400, "ValidationError", `Cannot upgrade cluster ${c.name} from ${c.version} to ${body.version}; ${permitted}`, ctx.requestId, {
      invalid_fields: { version: [`Must be one of: ${targets.join(", ")}`] },
    });
  }
  const task = ctx.sim.tasks.create({
    task_type: UPGRADE_TASK_TYPE,
    project_id: c.project_id,
    region_id: c.region_id,
    data: { cluster_name: c.name, cluster_id: c.id, from_version: c.version, version: body.version },
    request_id: ctx.requestId,
    error: upgradeQuotaFailure(ctx.sim.store.state, c),
  });
  c.task_id = task.id;
  ctx.sim.store.save();
  return ok(ctx.sim.answers.object({ tasks: [task.id] }));
}

/**
 * Registers the completion hook of the upgrade task: the new version on success, and in every
 * case the lock is released and the cluster's pool-health rules start counting reads.
 */
export function registerK8sTaskHooks(tasks: TaskEngine): void {
  tasks.onComplete(UPGRADE_TASK_TYPE, (task: TaskRecord, state: SimState) => {
    const c = state.clusters.find((x) => x.id === task.data?.cluster_id);
    if (!c) return;
    if (task.error === null && typeof task.data?.version === "string") {
      c.version = task.data.version;
      c.status = "Provisioned";
    }
    if (c.task_id === task.id) c.task_id = null;
    armAfterUpgrade(state, c);
  });
}

const base = "^/cloud/v2/k8s/clusters/(?<project_id>[^/]+)/(?<region_id>[^/]+)";

/** Kubernetes cluster routes. */
export const k8sRoutes: Route[] = [
  { method: "POST", pattern: new RegExp(`${base}/pools/check_limits/?$`), handler: checkLimits },
  { method: "GET", pattern: new RegExp(`${base}/?$`), handler: listClusters },
  { method: "GET", pattern: new RegExp(`${base}/(?<cluster_name>[^/]+)/?$`), handler: getCluster },
  { method: "GET", pattern: new RegExp(`${base}/(?<cluster_name>[^/]+)/upgrade_versions/?$`), handler: listUpgradeVersions },
  { method: "POST", pattern: new RegExp(`${base}/(?<cluster_name>[^/]+)/upgrade/?$`), handler: upgrade },
];
