/**
 * Pools that turn unhealthy on request (admin API, CONTRACT.md "Pool health"), so a client's
 * watch over an upgraded cluster can be proved: after the cluster's next upgrade ends, and
 * after a given number of further reads of the cluster, a pool reports another status (and node
 * count) from then on.
 *
 * Why counted in reads and not in time: a test that wants the pool to change "while the client
 * watches" then gets it at the same point of the client's work however busy the machine is.
 */
import type { Cluster, PoolHealthRule, SimState } from "./state";

function rulesOf(state: SimState, c: Cluster): PoolHealthRule[] {
  return state.poolHealth.filter((r) => r.project_id === c.project_id && r.region_id === c.region_id && r.cluster === c.name);
}

/** The cluster's upgrade ended (FINISHED or ERROR): its rules that waited for it start counting reads. */
export function armAfterUpgrade(state: SimState, c: Cluster): void {
  for (const r of rulesOf(state, c)) r.armed = true;
}

/**
 * One read of the cluster: each armed rule with no reads left changes its pool for good (and is
 * done); the others count this read. Returns whether the state changed (the caller saves).
 */
export function applyOnRead(state: SimState, c: Cluster): boolean {
  const rules = rulesOf(state, c).filter((r) => r.armed);
  if (rules.length === 0) return false;
  for (const r of rules) {
    if (r.reads_left > 0) {
      r.reads_left--;
      continue;
    }
    const pool = c.pools.find((p) => p.name === r.pool);
    if (pool) {
      pool.status = r.status;
      if (r.node_count !== null) pool.node_count = r.node_count;
    }
    state.poolHealth = state.poolHealth.filter((x) => x !== r);
  }
  return true;
}
