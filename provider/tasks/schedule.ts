/**
 * The task polling schedule: start fast, back off to the interval the spec recommends for the
 * task type.
 *
 * Why: short tasks (a 5 s VM create) should be seen finished within a second or two, while a
 * ten-minute cluster operation should not cost hundreds of polls. The spec's intervals are the
 * ceiling; the first polls are quicker.
 *
 * Chosen ceilings (spec "Recommended task polling intervals", plus our choices marked *):
 * - create_vm / create_volume / create_network / create_subnet / delete_vm: 5 s
 * - create_loadbalancer: 10 s
 * - delete of a bare metal server (`delete_bm*`, `delete_baremetal*`): 30 s
 * - create Kubernetes cluster (`create_k8s_cluster`, `create_k8s_cluster_v2`): 30 s
 * - `upgrade_k8s_cluster` / `upgrade_k8s_cluster_v2`: 15 s *. An upgrade takes minutes, like
 *   a create, but multi-step upgrades chain one task per minor version, so detection latency
 *   adds up per step; 15 s halves it for a cost of a few extra GETs per minute.
 * - other k8s task types: 30 s * (same family as create)
 * - anything else: 5 s * (the spec's most common interval)
 */

/** Tunables of the schedule; every field has a default in {@link DEFAULT_POLL_SCHEDULE}. */
export interface PollSchedule {
  /** Wait before the second poll (the first poll is immediate), in ms. */
  readonly initialMs: number;
  /** Growth factor of the wait per poll. */
  readonly factor: number;
  /** Ceiling of the wait in ms; when unset, the recommended interval of the task type. */
  readonly maxMs?: number | undefined;
  /** Report progress at least this often while waiting, in ms. */
  readonly progressEveryMs: number;
}

/** 1 s, growing x1.5 per poll to the type's ceiling; progress at least every 30 s. */
export const DEFAULT_POLL_SCHEDULE: PollSchedule = Object.freeze({
  initialMs: 1_000,
  factor: 1.5,
  progressEveryMs: 30_000,
});

/** The recommended polling interval for a task type, in ms (see the module comment). */
export function recommendedIntervalMs(taskType: string | null | undefined): number {
  const t = (taskType ?? "").toLowerCase();
  if (/^(create_vm|create_volume|create_network|create_subnet|delete_vm)$/.test(t)) return 5_000;
  if (t === "create_loadbalancer") return 10_000;
  if (/^delete_(bm|baremetal|bare_metal)/.test(t)) return 30_000;
  if (/^upgrade_k8s_cluster(_v2)?$/.test(t)) return 15_000;
  if (t.includes("k8s")) return 30_000;
  return 5_000;
}

/** Merge overrides onto the defaults and check them. */
export function resolvePollSchedule(override?: Partial<PollSchedule>): PollSchedule {
  const s: PollSchedule = { ...DEFAULT_POLL_SCHEDULE, ...Object.fromEntries(Object.entries(override ?? {}).filter(([, v]) => v !== undefined)) };
  if (!(s.initialMs > 0)) throw new RangeError("poll schedule: initialMs must be > 0");
  if (!(s.factor >= 1)) throw new RangeError("poll schedule: factor must be >= 1");
  if (s.maxMs !== undefined && !(s.maxMs > 0)) throw new RangeError("poll schedule: maxMs must be > 0");
  if (!(s.progressEveryMs > 0)) throw new RangeError("poll schedule: progressEveryMs must be > 0");
  return s;
}

/**
 * The wait after poll number `poll` (1-based): `initialMs * factor^(poll-1)`, capped at
 * `maxMs` or the type's recommended interval, and never below `initialMs` unless the cap is lower.
 */
export function pollDelayMs(poll: number, taskType: string | null | undefined, schedule: PollSchedule): number {
  const cap = schedule.maxMs ?? recommendedIntervalMs(taskType);
  return Math.min(cap, Math.round(schedule.initialMs * Math.pow(schedule.factor, Math.max(0, poll - 1))));
}
