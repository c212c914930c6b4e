/**
 * List shifts (CONTRACT.md "Admin API", `/__admin/list-shifts`): a busy project whose lists gain
 * and lose items while a client pages through them.
 *
 * Why: on the live platform, instances, tasks and AI tasks are created and removed by others at
 * any time, so the items at a given offset move between two page requests. A rule names one list
 * path; after each page of that list is answered (a GET with status 200), `insert` new items go
 * to the head of the list (the first place of its default order) and `remove` items leave it
 * from the head, `times` times (every page when not given). Clients can then prove they return
 * each item once and miss none.
 */
import { randomUUID } from "crypto";
import { simpleError } from "./errors";
import { Cluster, Instance, JsonObject, Project, TaskRecord } from "./state";
import type { StateStore } from "./stateStore";
import { CREATED_RESOURCE_KEYS } from "./tasks";

/** What a shift changes: the state, on the simulator's clock. */
interface SimContext {
  readonly store: StateStore;
  readonly clock: { now(): number };
}

/** One list-shift rule, as `GET /__admin/list-shifts` shows it. */
export interface ListShiftRule {
  /** The list's path, e.g. `/cloud/v1/instances/1/76` (exact, without a trailing slash). */
  readonly path: string;
  /** Items added at the head after each page. */
  readonly insert: number;
  /** Items removed from the head after each page. */
  readonly remove: number;
  /** Pages left to shift after; null = every page. */
  times: number | null;
}

/** The lists a rule may name, by path shape. */
const LIST_PATHS: ReadonlyArray<{ readonly kind: ListKind; readonly pattern: RegExp }> = [
  { kind: "instances", pattern: /^\/cloud\/v1\/instances\/(\d+)\/(\d+)$/ },
  { kind: "clusters", pattern: /^\/cloud\/v2\/k8s\/clusters\/(\d+)\/(\d+)$/ },
  { kind: "projects", pattern: /^\/cloud\/v1\/projects$/ },
  { kind: "tasks", pattern: /^\/cloud\/v1\/tasks$/ },
  { kind: "aiTasks", pattern: /^\/streaming\/ai\/tasks$/ },
];

type ListKind = "instances" | "clusters" | "projects" | "tasks" | "aiTasks";

/** Paths a rule may name, for the admin API's messages. */
export const LIST_SHIFT_PATHS = "/cloud/v1/instances/{project_id}/{region_id}, /cloud/v2/k8s/clusters/{project_id}/{region_id}, /cloud/v1/projects, /cloud/v1/tasks, /streaming/ai/tasks";

function count(b: JsonObject, key: string): number {
  const v = b[key] ?? 0;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 1000) throw simpleError(400, `${key} must be an integer from 0 to 1000`);
  return v;
}

/** The rules of one simulator; cleared by reset. */
export class ListShifts {
  private rules: ListShiftRule[] = [];
  private made = 0;

  /** Adds a rule from an admin body `{path, insert?, remove?, times?}`, replacing one for the same path. */
  add(b: JsonObject): ListShiftRule {
    const path = typeof b.path === "string" ? b.path.replace(/\/$/, "") : "";
    if (!LIST_PATHS.some((l) => l.pattern.test(path))) throw simpleError(400, `path must name a paged list: ${LIST_SHIFT_PATHS}`);
    const insert = count(b, "insert");
    const remove = count(b, "remove");
    if (insert + remove === 0) throw simpleError(400, "insert or remove must be at least 1");
    const times = b.times === undefined || b.times === null ? null : count(b, "times");
    const rule: ListShiftRule = { path, insert, remove, times };
    this.rules = [...this.rules.filter((r) => r.path !== path), rule];
    return rule;
  }

  /** The rules in force. */
  list(): ListShiftRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }

  /** After a page of `path` was answered: applies its rule, if any is left. */
  afterPage(sim: SimContext, path: string): void {
    const rule = this.rules.find((r) => r.path === path.replace(/\/$/, ""));
    if (!rule || rule.times === 0) return;
    if (rule.times !== null) rule.times--;
    const list = LIST_PATHS.find((l) => l.pattern.test(rule.path));
    const ids = list?.pattern.exec(rule.path)?.slice(1).map(Number) ?? [];
    if (!list) return;
    for (let i = 0; i < rule.insert; i++) this.insertOne(sim, list.kind, ids[0] ?? 0, ids[1] ?? 0);
    for (let i = 0; i < rule.remove; i++) removeOne(sim, list.kind, ids[0] ?? 0, ids[1] ?? 0);
    sim.store.save();
  }

  private insertOne(sim: SimContext, kind: ListKind, projectId: number, regionId: number): void {
    const n = ++this.made;
    const state = sim.store.state;
    const now = sim.clock.now();
    if (kind === "instances") state.instances.unshift(newInstance(state.instances, projectId, regionId, n, now));
    else if (kind === "clusters") {
      const model = state.clusters.find((c) => c.project_id === projectId && c.region_id === regionId);
      if (model) state.clusters.unshift({ ...(structuredClone(model) as Cluster), id: randomUUID(), name: `shift-cluster-${n}`, task_id: null });
    } else if (kind === "projects") state.projects.unshift(newProject(state.projects, n));
    else if (kind === "tasks") state.tasks.push(newTask(sim, state.tasks, now));
    else {
      const latest = state.aiTasks.reduce((t, a) => (a.started_at > t ? a.started_at : t), "");
      const startedAt = latest ? new Date(Date.parse(`${latest}Z`) + 1000).toISOString().slice(0, 19) : new Date(now).toISOString().slice(0, 19);
      const model = state.aiTasks[0];
      if (model) state.aiTasks.push({ ...structuredClone(model), task_id: randomUUID(), started_at: startedAt, processing_time: { started_at: startedAt, completed_at: null, total_time_sec: null } });
    }
  }
}

function newInstance(all: readonly Instance[], projectId: number, regionId: number, n: number, now: number): Instance {
  const model = all.find((i) => i.project_id === projectId && i.region_id === regionId) ?? all[0];
  const base = model ? (structuredClone(model) as Instance) : ({} as Instance);
  return { ...base, id: randomUUID(), name: `shift-vm-${n}`, project_id: projectId, region_id: regionId, status: "ACTIVE", created_at: new Date(now).toISOString().slice(0, 19) };
}

function newProject(all: readonly Project[], n: number): Project {
  const id = all.reduce((m, p) => Math.max(m, p.id), 0) + 1;
  return { id, client_id: all[0]?.client_id ?? 0, name: `shift-project-${n}`, description: null, is_default: false, state: "ACTIVE", created_at: "2026-01-01T00:00:00", deleted_at: null, task_id: null };
}

/** A task that has already finished, created after every other (the head of the default, newest-first order). */
function newTask(sim: SimContext, all: readonly TaskRecord[], now: number): TaskRecord {
  const createdAt = Math.max(now, all.reduce((m, t) => Math.max(m, t.createdAt), 0) + 1);
  const client = sim.store.state.client;
  return {
    id: randomUUID(),
    task_type: "create_vm",
    project_id: 1,
    region_id: 76,
    createdAt,
    // Ended already (on the simulated clock), whatever its place in the order.
    runAt: Math.min(createdAt, now),
    doneAt: Math.min(createdAt, now),
    error: null,
    createdResources: Object.fromEntries(CREATED_RESOURCE_KEYS.map((k) => [k, []])),
    data: null,
    request_id: null,
    user_id: typeof client.currentUser === "number" ? client.currentUser : 0,
    client_id: typeof client.id === "number" ? client.id : 0,
    applied: true,
  };
}

/** Removes the item at the head of the list's default order (for tasks and AI tasks: the newest; a running task stays). */
function removeOne(sim: SimContext, kind: ListKind, projectId: number, regionId: number): void {
  const state = sim.store.state;
  const dropFirst = <T>(items: T[], where: (item: T) => boolean): void => {
    const at = items.findIndex(where);
    if (at >= 0) items.splice(at, 1);
  };
  if (kind === "instances") dropFirst(state.instances, (i) => i.project_id === projectId && i.region_id === regionId);
  else if (kind === "clusters") dropFirst(state.clusters, (c) => c.project_id === projectId && c.region_id === regionId && c.task_id === null);
  else if (kind === "projects") dropFirst(state.projects, (p) => !p.is_default);
  else if (kind === "tasks") {
    const now = sim.clock.now();
    const newest = [...state.tasks].filter((t) => t.doneAt <= now).sort((a, b) => b.createdAt - a.createdAt)[0];
    if (newest) dropFirst(state.tasks, (t) => t === newest);
  } else {
    const newest = [...state.aiTasks].sort((a, b) => (a.started_at < b.started_at ? 1 : -1))[0];
    if (newest) dropFirst(state.aiTasks, (t) => t === newest);
  }
}
