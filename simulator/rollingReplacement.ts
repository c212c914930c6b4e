/**
 * How a cluster's pools look while an upgrade task runs (CONTRACT.md "Rolling replacement"):
 * its nodes are replaced one at a time, pool after pool, over the task's running time; each
 * node's turn has two halves: its replacement is created (the pool reports `Scaling up` and one
 * node more), then the old node is drained and removed (`Scaling down`, still one more). Pools
 * before and after their turn report `Running` at their node count.
 *
 * Why computed from the task's schedule when a cluster is read, not stored: the state holds the
 * pools at rest, so a state-file reload or an admin reset never leaves a pool half-replaced,
 * and the view needs no timer.
 */
import type { Pool } from "./state";

/** The status of a pool at rest and after an upgrade (PD-OAS `K8sClusterPoolV2Serializer` example; PD-doc GPU autoscaling guide). */
export const POOL_READY = "Running";

/** While a node's replacement is created (the public GPU autoscaling guide names this status). */
export const POOL_SCALING_UP = "Scaling up";

/** While the replaced node is drained and removed (the simulator's own word: the public material names none). */
export const POOL_SCALING_DOWN = "Scaling down";

/**
 * The pools as they look `progress` (0 to 1) into the running part of an upgrade task; outside
 * 0..1 (not started, ended) the pools are as stored.
 */
export function poolsDuring(pools: readonly Pool[], progress: number): Pool[] {
  const sizes = pools.map((p) => (typeof p.node_count === "number" && p.node_count > 0 ? p.node_count : 0));
  const total = sizes.reduce((a, b) => a + b, 0);
  if (!(progress >= 0 && progress < 1) || total === 0) return pools.map((p) => ({ ...p }));
  const position = progress * total;
  const turn = Math.floor(position);
  const secondHalf = position - turn >= 0.5;
  let first = 0;
  return pools.map((p, i) => {
    const size = sizes[i] ?? 0;
    const mine = turn >= first && turn < first + size;
    first += size;
    if (!mine) return { ...p };
    return { ...p, status: secondHalf ? POOL_SCALING_DOWN : POOL_SCALING_UP, node_count: size + 1 };
  });
}
