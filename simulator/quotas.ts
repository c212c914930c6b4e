/**
 * Project quotas of the simulator: what a project uses, what a new node pool would add, and
 * which limits that would exceed (CONTRACT.md "Quotas").
 *
 * Why one module: `POST .../pools/check_limits` answers from it, and an upgrade task decides
 * from it whether it fails with `Quota limit for <quota> exceeded by <n>` (spec "Errors").
 * Both must agree, or the simulator would pass a check and then fail the task it guarded.
 */
import type { Cluster, Pool, SimState } from "./state";

/**
 * The quotas the simulator computes, in the order a failing task names them: VMs (one per
 * node), vCPUs and RAM in MiB (from the seed's flavors). The names and units are the public
 * API's (`K8sClusterQuotaResponseSerializer`: `vm_count_*`, `cpu_count_*`, `ram_*` "RAM Size, MiB").
 */
export const COMPUTED_QUOTAS = ["vm_count", "cpu_count", "ram"] as const;

/** One computed quota. */
export type ComputedQuota = (typeof COMPUTED_QUOTAS)[number];

/** A pool as the quota sees it: its flavor and its nodes. */
export interface PoolSize {
  flavor_id: string;
  node_count: number;
}

/** What `nodes` nodes of `flavorId` count against each quota (no known flavor: VMs only). */
export function amountOf(state: SimState, flavorId: string, nodes: number): Record<ComputedQuota, number> {
  const flavor = state.flavors.find((f) => f.flavor_id === flavorId);
  return { vm_count: nodes, cpu_count: nodes * (flavor?.vcpus ?? 0), ram: nodes * (flavor?.ram ?? 0) };
}

function sizeOf(p: Pool): PoolSize {
  return { flavor_id: typeof p.flavor_id === "string" ? p.flavor_id : "", node_count: typeof p.node_count === "number" ? p.node_count : 0 };
}

/** What a project uses: the nodes of every pool of its clusters (instances are not counted). */
export function usageOf(state: SimState, projectId: number): Record<ComputedQuota, number> {
  const total: Record<ComputedQuota, number> = { vm_count: 0, cpu_count: 0, ram: 0 };
  for (const c of state.clusters.filter((x) => x.project_id === projectId)) {
    for (const p of c.pools) {
      const { flavor_id, node_count } = sizeOf(p);
      const amount = amountOf(state, flavor_id, node_count);
      for (const q of COMPUTED_QUOTAS) total[q] += amount[q];
    }
  }
  return total;
}

/** One quota a new pool would exceed: its limit, the usage now and what the pool adds. */
export interface Excess {
  quota: ComputedQuota;
  limit: number;
  usage: number;
  requested: number;
}

/** The quotas of `projectId` that a new pool of `pool`'s flavor and size would exceed, in {@link COMPUTED_QUOTAS} order. */
export function excessOf(state: SimState, projectId: number, pool: PoolSize): Excess[] {
  const limits = state.quotas[String(projectId)] ?? {};
  const usage = usageOf(state, projectId);
  const requested = amountOf(state, pool.flavor_id, pool.node_count);
  const out: Excess[] = [];
  for (const quota of COMPUTED_QUOTAS) {
    const limit = limits[quota];
    if (typeof limit === "number" && usage[quota] + requested[quota] > limit) out.push({ quota, limit, usage: usage[quota], requested: requested[quota] });
  }
  return out;
}

/**
 * The failure text of an upgrade of `cluster`, or null when the quota holds. Replacement nodes
 * are created before old ones go, so each pool in turn needs a second pool of its flavor and
 * size on top of the project's usage (spec "Limits"); the first quota a pool exceeds is named.
 */
export function upgradeQuotaFailure(state: SimState, cluster: Cluster): string | null {
  for (const p of cluster.pools) {
    const [first] = excessOf(state, cluster.project_id, sizeOf(p));
    if (first) return `Quota limit for ${first.quota} exceeded by ${first.usage + first.requested - first.limit}`;
  }
  return null;
}
