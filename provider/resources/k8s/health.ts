/**
 * Waits for an upgraded cluster to be healthy, and watches it stay so: a finished task does not
 * mean the cluster serves, and `dependsOn` waits only for the resource to succeed.
 *
 * Healthy: `Provisioned` (spec) at the version reached, and every pool `Running` (the OpenAPI's
 * pool example; the GPU autoscaling guide's "it should be Running. If the status shows Scaling
 * up, wait") with its node count from before, or within an autoscaling pool's range. Any other
 * pool status is "not ready yet", never an error of its own.
 */
import { CloudPlatformError, type K8sPool } from "../../api";
import { formatDuration } from "../../api/duration";
import { pollDelayMs, type PollSchedule, type WaiterClock } from "../../tasks";
import type { LogOptions } from "../lifecycle";
import { PROVISIONED_STATUS, UPGRADE_TASK_TYPE, type UsableCluster } from "./types";

/** The pool status the public material calls ready. */
export const POOL_READY_STATUS = "Running";

/** Node counts of a cluster's pools before the upgrade, by pool id (or name). */
export type PoolSizes = ReadonlyMap<string, number>;

function poolKey(p: K8sPool, index: number): string {
  return p.id ?? p.name ?? `#${index}`;
}

function poolLabel(p: K8sPool, index: number): string {
  return `pool ${p.name ?? p.id ?? `#${index + 1}`}`;
}

/** What each pool must have again after the upgrade. */
export function poolSizesOf(cluster: UsableCluster): PoolSizes {
  const sizes = new Map<string, number>();
  cluster.pools.forEach((p, i) => {
    if (p.nodeCount !== null) sizes.set(poolKey(p, i), p.nodeCount);
  });
  return sizes;
}

function poolProblem(p: K8sPool, index: number, before: PoolSizes): string | undefined {
  const label = poolLabel(p, index);
  if (p.status?.toLowerCase() !== POOL_READY_STATUS.toLowerCase()) return `${label} reports status ${p.status ?? "(none)"}, not ${POOL_READY_STATUS}`;
  if (p.nodeCount === null) return `${label} reports no node count`;
  const { minNodeCount: min, maxNodeCount: max } = p;
  if (min !== null && max !== null && min < max) {
    return p.nodeCount < min || p.nodeCount > max ? `${label} runs ${p.nodeCount} nodes, outside its autoscaling range ${min}..${max}` : undefined;
  }
  const want = before.get(poolKey(p, index));
  return want !== undefined && p.nodeCount !== want ? `${label} runs ${p.nodeCount} of its ${want} nodes` : undefined;
}

/** Why `cluster` is not healthy at `version`, or undefined when it is. */
export function healthProblem(cluster: UsableCluster, version: string, before: PoolSizes): string | undefined {
  if (cluster.version !== version) return `the cluster reports version ${cluster.version}, not ${version}`;
  if (cluster.status !== PROVISIONED_STATUS) return `the cluster reports status ${cluster.status}, not ${PROVISIONED_STATUS}`;
  for (const [i, p] of cluster.pools.entries()) {
    const problem = poolProblem(p, i, before);
    if (problem) return problem;
  }
  return undefined;
}

/** The cluster did not become healthy in time, or left the healthy state while watched. */
export class ClusterUnhealthyError extends CloudPlatformError {}

/** What a health wait needs from the upgrade run. */
export interface HealthWatch {
  readonly name: string;
  /** Also records it as last seen. */
  readCluster(): Promise<UsableCluster>;
  log(message: string, options?: LogOptions): void;
  readonly clock: WaiterClock;
  readonly schedule: PollSchedule;
  readonly signal: AbortSignal;
}

async function pause(w: HealthWatch, ms: number, what: string): Promise<void> {
  await w.clock.sleep(Math.max(0, ms), w.signal);
  if (w.signal.aborted) throw new ClusterUnhealthyError(`${w.name}: stopped while ${what}.`);
}

/** The healthy read, polled for until `deadline`; `limit` names what ran out. */
export async function awaitHealthy(w: HealthWatch, cluster: UsableCluster, version: string, before: PoolSizes, deadline: number, limit: string): Promise<UsableCluster> {
  const started = w.clock.now();
  let current = cluster;
  for (let poll = 1; ; poll++) {
    const problem = healthProblem(current, version, before);
    if (!problem) return current;
    const now = w.clock.now();
    if (now >= deadline) throw new ClusterUnhealthyError(`${w.name}: ${limit} ran out waiting for the cluster to be healthy at ${version}: ${problem}.`);
    w.log(`${w.name}: waiting for the cluster to be healthy at ${version}: ${problem}, ${formatDuration(now - started, "seconds")} elapsed`, { status: true });
    await pause(w, Math.min(pollDelayMs(poll, UPGRADE_TASK_TYPE, w.schedule), deadline - now), "waiting for the cluster to be healthy");
    current = await w.readCluster();
  }
}

/** The first read that is not healthy fails with what changed. */
export async function soak(w: HealthWatch, cluster: UsableCluster, before: PoolSizes, soakSeconds: number): Promise<UsableCluster> {
  const started = w.clock.now();
  const end = started + soakSeconds * 1000;
  const version = cluster.version;
  let current = cluster;
  for (let poll = 1; w.clock.now() < end; poll++) {
    const now = w.clock.now();
    w.log(`${w.name}: healthy at ${version}; watching it for soakSeconds (${soakSeconds}s), ${formatDuration(end - now, "seconds")} left`, { status: true });
    await pause(w, Math.min(pollDelayMs(poll, UPGRADE_TASK_TYPE, w.schedule), end - now), "watching the cluster during soakSeconds");
    current = await w.readCluster();
    const problem = healthProblem(current, version, before);
    if (problem) {
      throw new ClusterUnhealthyError(
        `${w.name}: the cluster left the healthy state ${formatDuration(w.clock.now() - started, "seconds")} into soakSeconds (${soakSeconds}s): ${problem}. ` +
          "Resources that depend on this one were not started. Repair the cluster; the next `pulumi up` waits for it to be healthy and watches it again.",
      );
    }
  }
  w.log(`${w.name}: stayed healthy at ${version} for soakSeconds (${soakSeconds}s)`);
  return current;
}
