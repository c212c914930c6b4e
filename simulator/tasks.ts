/**
 * The cloud task engine.
 *
 * Writes on the cloud API return task ids at once; the outcome is read by polling
 * `GET /cloud/v1/tasks/{id}` (spec "Task"). Each task is NEW for 1 simulated second, RUNNING for
 * its type's duration, then FINISHED or ERROR (CONTRACT.md "Tasks"). The state is computed lazily
 * from real-time timestamps whenever a task is read, and completion side effects (a cluster's new
 * version, releasing its lock) are applied by `settle()`, which the server calls before every
 * request and from a timer, so a reload from a state file continues tasks correctly.
 */
import { randomUUID } from "crypto";
import { Clock, formatTimestamp } from "./clock";
import { JsonObject, SimState, TaskRecord } from "./state";
import type { StateStore } from "./stateStore";

/** Simulated seconds a task stays NEW before it starts running. */
export const NEW_SECONDS = 1;

/** Simulated seconds a task of the given type spends RUNNING (CONTRACT.md). */
export function runningSeconds(taskType: string): number {
  return taskType === "upgrade_k8s_cluster" ? 30 : 5;
}

/**
 * Every resource-type key of `created_resources`. A FINISHED task reports all of them, empty
 * unless that type was created, as the real API does.
 */
export const CREATED_RESOURCE_KEYS = [
  "ai_clusters", "api_keys", "caas_containers", "clusters", "ddos_profiles", "faas_functions",
  "faas_namespaces", "file_shares", "floatingips", "healthmonitors", "images", "inference_instances",
  "instances", "k8s_clusters", "k8s_pools", "l7polices", "l7rules", "laas_topic", "listeners",
  "loadbalancers", "members", "networks", "pools", "ports", "postgresql_clusters", "projects",
  "registry_registries", "registry_users", "routers", "secrets", "security_group_rules",
  "security_groups", "servergroups", "snapshots", "subnets", "volumes",
] as const;

/** Task states of the spec. */
export type TaskState = "NEW" | "RUNNING" | "FINISHED" | "ERROR";

/** All task states, for validating the `state` filter. */
export const TASK_STATES: readonly TaskState[] = ["NEW", "RUNNING", "FINISHED", "ERROR"];

/** Parameters for creating a task. */
export interface NewTask {
  task_type: string;
  project_id: number | null;
  region_id: number | null;
  data?: JsonObject | null;
  request_id?: string | null;
  /** Failure decided by the caller (e.g. quota); a pending fail-next instruction wins. */
  error?: string | null;
  /** Non-empty created resources for a successful task, e.g. `{instances: [id]}`. */
  createdResources?: Record<string, string[]>;
}

/** Side effect run once when a task reaches its end (FINISHED or ERROR). */
export type CompletionHook = (task: TaskRecord, state: SimState) => void;

/**
 * Creates, reads and completes tasks.
 *
 * Why lazy: the state of a task is a pure function of the clock and its schedule, so nothing is
 * lost when the process stops; `settle()` only applies side effects that must be visible on
 * other resources (the cluster), and it is idempotent.
 */
export class TaskEngine {
  private readonly store: StateStore;
  private readonly clock: Clock;
  private readonly hooks = new Map<string, CompletionHook>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /**
   * Tasks by id and the tasks whose end has not been applied, for the tasks array they were
   * built from: `settle()` runs before every request, and a scan of all tasks there (and in
   * `get`) would make a run of requests against 10,000 tasks quadratic. Rebuilt when the array
   * is replaced or grows behind the engine's back (reset, reload, bulk seeding).
   */
  private index: { tasks: TaskRecord[]; length: number; byId: Map<string, TaskRecord>; pending: Set<TaskRecord> } | undefined;

  constructor(store: StateStore, clock: Clock) {
    this.store = store;
    this.clock = clock;
  }

  private tables(): NonNullable<TaskEngine["index"]> {
    const tasks = this.store.state.tasks;
    if (this.index && this.index.tasks === tasks && this.index.length === tasks.length) return this.index;
    const byId = new Map<string, TaskRecord>();
    const pending = new Set<TaskRecord>();
    for (const t of tasks) {
      if (!byId.has(t.id)) byId.set(t.id, t);
      if (!t.applied) pending.add(t);
    }
    this.index = { tasks, length: tasks.length, byId, pending };
    return this.index;
  }

  /** Registers the completion side effect of a task type (e.g. the k8s upgrade). */
  onComplete(taskType: string, hook: CompletionHook): void {
    this.hooks.set(taskType, hook);
  }

  /** Creates a task, consuming a pending fail-next instruction for its type. Does not save. */
  create(params: NewTask): TaskRecord {
    const state = this.store.state;
    const now = this.clock.now();
    const runAt = now + this.clock.simSecondsToMs(NEW_SECONDS);
    const doneAt = runAt + this.clock.simSecondsToMs(runningSeconds(params.task_type));
    let error = params.error ?? null;
    const failIdx = state.failNext.findIndex((f) => f.task_type === params.task_type);
    if (failIdx >= 0) {
      error = state.failNext[failIdx]?.error ?? "Simulated failure";
      state.failNext.splice(failIdx, 1);
    }
    const createdResources: Record<string, string[]> = {};
    for (const key of CREATED_RESOURCE_KEYS) createdResources[key] = [];
    Object.assign(createdResources, params.createdResources ?? {});
    const clientId = typeof state.client.id === "number" ? state.client.id : 0;
    const userId = typeof state.client.currentUser === "number" ? state.client.currentUser : 0;
    const task: TaskRecord = {
      id: randomUUID(),
      task_type: params.task_type,
      project_id: params.project_id,
      region_id: params.region_id,
      createdAt: now,
      runAt,
      doneAt,
      error,
      createdResources,
      data: params.data ?? null,
      request_id: params.request_id ?? null,
      user_id: userId,
      client_id: clientId,
      applied: false,
    };
    const index = this.tables();
    state.tasks.push(task);
    index.length = state.tasks.length;
    index.byId.set(task.id, task);
    index.pending.add(task);
    this.schedule();
    return task;
  }

  /** Finds a task by id. */
  get(id: string): TaskRecord | undefined {
    return this.tables().byId.get(id);
  }

  /** The state a task is in now. */
  stateOf(task: TaskRecord, now = this.clock.now()): TaskState {
    if (now < task.runAt) return "NEW";
    if (now < task.doneAt) return "RUNNING";
    return task.error === null ? "FINISHED" : "ERROR";
  }

  /** Whether the task has not ended yet. */
  isActive(task: TaskRecord, now = this.clock.now()): boolean {
    return now < task.doneAt;
  }

  /** The task as the API shows it (spec "Task" plus the optional fields the live API adds). */
  view(task: TaskRecord, now = this.clock.now()): JsonObject {
    const st = this.stateOf(task, now);
    const ended = st === "FINISHED" || st === "ERROR";
    const updated = ended ? task.doneAt : st === "RUNNING" ? task.runAt : null;
    return {
      id: task.id,
      task_type: task.task_type,
      state: st,
      error: st === "ERROR" ? task.error : null,
      created_on: formatTimestamp(task.createdAt),
      updated_on: updated === null ? null : formatTimestamp(updated),
      finished_on: ended ? formatTimestamp(task.doneAt) : null,
      created_resources: st === "FINISHED" ? task.createdResources : null,
      project_id: task.project_id,
      region_id: task.region_id,
      user_id: task.user_id,
      client_id: task.client_id,
      user_client_id: task.client_id,
      request_id: task.request_id,
      data: task.data,
      detailed_state: ended ? st : null,
      acknowledged_at: null,
      acknowledged_by: null,
      job_id: null,
      lifecycle_policy_id: null,
      schedule_id: null,
    };
  }

  /**
   * Applies completion side effects of every task that has ended. Returns whether anything
   * changed (the caller saves). Idempotent.
   */
  settle(): boolean {
    const now = this.clock.now();
    let changed = false;
    const pending = this.tables().pending;
    for (const task of [...pending]) {
      if (task.applied) pending.delete(task);
      if (task.applied || now < task.doneAt) continue;
      task.applied = true;
      pending.delete(task);
      changed = true;
      this.hooks.get(task.task_type)?.(task, this.store.state);
    }
    if (changed) this.store.save();
    this.schedule();
    return changed;
  }

  /** Ends a task now (admin API): it jumps to FINISHED or ERROR and its effects apply. */
  finishNow(task: TaskRecord): void {
    const now = this.clock.now();
    if (task.runAt > now) task.runAt = now;
    if (task.doneAt > now) task.doneAt = now;
    this.settle();
  }

  /**
   * Arms one timer for the next task end so side effects (and the state file) are updated even
   * when nobody polls. The timer is unref'd: it never keeps the process alive.
   */
  schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let next = Infinity;
    for (const t of this.tables().pending) if (!t.applied && t.doneAt < next) next = t.doneAt;
    if (next === Infinity) return;
    const delay = Math.max(0, next - this.clock.now());
    this.timer = setTimeout(() => this.settle(), Math.min(delay + 5, 2 ** 31 - 1));
    this.timer.unref();
  }

  /** Stops the timer (server close). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
