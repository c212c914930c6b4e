/**
 * Task polling: start fast, back off to the spec's "Recommended task polling intervals" as the
 * ceiling (VM, volume, network: 5 s; load balancer 10 s; bare-metal delete and k8s create 30 s).
 * Our choices: upgrades 15 s (multi-step upgrades chain one task per minor, so detection latency
 * adds up), other k8s types 30 s, anything else 5 s.
 */
import { ConfigurationError } from "../api/errors";

/** Tunables of the schedule; every field has a default in {@link DEFAULT_POLL_SCHEDULE}. */
export interface PollSchedule {
  /** Before the second poll; the first is immediate. */
  readonly initialMs: number;
  readonly factor: number;
  /** When unset, the recommended interval of the task type. */
  readonly maxMs?: number | undefined;
  readonly progressEveryMs: number;
}

/** 1 s, growing x1.5 per poll to the type's ceiling; progress at least every 30 s. */
export const DEFAULT_POLL_SCHEDULE: PollSchedule = Object.freeze({
  initialMs: 1_000,
  factor: 1.5,
  progressEveryMs: 30_000,
});

/** In ms (see the module comment). */
export function recommendedIntervalMs(taskType: string | null | undefined): number {
  const t = (taskType ?? "").toLowerCase();
  if (/^(create_vm|create_volume|create_network|create_subnet|delete_vm)$/.test(t)) return 5_000;
  if (t === "create_loadbalancer") return 10_000;
  if (/^delete_(bm|baremetal|bare_metal)/.test(t)) return 30_000;
  if (/^upgrade_k8s_cluster(_v2)?$/.test(t)) return 15_000;
  if (t.includes("k8s")) return 30_000;
  return 5_000;
}

/** The defaults with `override`'s set fields, checked so a bad value fails before the first poll. */
export function resolvePollSchedule(override?: Partial<PollSchedule>): PollSchedule {
  const s: PollSchedule = { ...DEFAULT_POLL_SCHEDULE, ...Object.fromEntries(Object.entries(override ?? {}).filter(([, v]) => v !== undefined)) };
  const bad = (field: keyof PollSchedule, allowed: string): never => {
    throw new ConfigurationError(`Invalid poll schedule: ${field} must be ${allowed}, got ${String(s[field])}`);
  };
  if (!(s.initialMs > 0)) bad("initialMs", "> 0");
  if (!(s.factor >= 1)) bad("factor", ">= 1");
  if (s.maxMs !== undefined && !(s.maxMs > 0)) bad("maxMs", "> 0");
  if (!(s.progressEveryMs > 0)) bad("progressEveryMs", "> 0");
  return s;
}

/** The wait after poll `poll` (1-based), capped at `maxMs` or the type's interval. */
export function pollDelayMs(poll: number, taskType: string | null | undefined, schedule: PollSchedule): number {
  const cap = schedule.maxMs ?? recommendedIntervalMs(taskType);
  return Math.min(cap, Math.round(schedule.initialMs * Math.pow(schedule.factor, Math.max(0, poll - 1))));
}
