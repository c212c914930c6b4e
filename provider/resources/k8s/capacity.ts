/**
 * At preview, whether the quota holds the second pool a rolling upgrade needs (spec "Limits"),
 * asked per pool with minimum and maximum equal to its count, so the answer holds whichever
 * count is charged. A guard only: when the endpoint cannot answer, it warns once per run and
 * region and the upgrade goes on unchecked.
 */
import { RequestAbortedError, type ExceededQuota, type K8sPool } from "../../api";
import { messageOf } from "../../caughtErrors";
import type { CheckFailure, LifecycleContext } from "../lifecycle";
import { withRefusalCode } from "../refusals";
import type { K8sClusterUpgradeInputs, UsableCluster } from "./types";

/** A pool the check can ask about: its flavor and a node count are reported. */
export interface SizedPool {
  readonly label: string;
  readonly flavorId: string;
  readonly nodeCount: number;
}

function sized(p: K8sPool, index: number): SizedPool | undefined {
  if (!p.flavorId || p.nodeCount === null) return undefined;
  return { label: p.name ?? p.id ?? `#${index + 1}`, flavorId: p.flavorId, nodeCount: p.nodeCount };
}

function partOf(v: number | null): string {
  return v === null ? "not reported" : String(v);
}

/** `vm_count (limit 4, usage 3, requested 3)`. */
function describeQuota(q: ExceededQuota): string {
  return `${q.quota} (limit ${partOf(q.limit)}, usage ${partOf(q.usage)}, requested ${partOf(q.requested)})`;
}

/** The refusal for one pool, ending with its code. */
export function quotaRefusal(inputs: Pick<K8sClusterUpgradeInputs, "projectId" | "regionId" | "clusterName" | "version">, pool: SizedPool, exceeded: readonly ExceededQuota[]): string {
  const { projectId, regionId, clusterName, version } = inputs;
  const needed = exceeded
    .filter((q) => q.usage !== null && q.requested !== null)
    .map((q) => `${q.quota} to at least ${(q.usage as number) + (q.requested as number)}`);
  const raise = needed.length ? `Raise the quota (${needed.join(", ")})` : "Raise the quota";
  return withRefusalCode(
    "CLOUDPLATFORM_QUOTA",
    `cluster ${clusterName} cannot be upgraded to ${version} within its project's quota: the rolling replacement creates new nodes ` +
      `before it removes old ones, so project ${projectId} in region ${regionId} must hold a second pool ${pool.label} ` +
      `(${pool.nodeCount} nodes of ${pool.flavorId}) while it runs, and that would exceed ${exceeded.map(describeQuota).join(" and ")}. ` +
      `${raise} or shrink pool ${pool.label} first, then run again. Nothing was written.`,
  );
}

/** One failure per pool that would exceed a quota; throws only when the operation is cancelled. */
export async function checkUpgradeCapacity(ctx: LifecycleContext, inputs: K8sClusterUpgradeInputs, cluster: UsableCluster): Promise<CheckFailure[]> {
  const { projectId, regionId, clusterName } = inputs;
  const region = `${projectId}/${regionId}`;
  if (typeof cluster.taskId === "string" || ctx.run.quotaCheckUnavailable.has(region)) return [];
  const pools = cluster.pools.map(sized);
  const unsized = cluster.pools.flatMap((p, i) => (pools[i] ? [] : [p.name ?? p.id ?? `#${i + 1}`]));
  if (unsized.length) ctx.log(`${clusterName}: pools ${unsized.join(", ")} report no flavor or node count, so their quota is not checked`, { warning: true });
  const failures: CheckFailure[] = [];
  try {
    for (const pool of pools) {
      if (!pool || pool.nodeCount === 0) continue;
      const n = pool.nodeCount;
      const answer = await ctx.client().cloud.k8s.checkPoolQuota(projectId, regionId, { flavorId: pool.flavorId, nodeCount: n, minNodeCount: n, maxNodeCount: n, name: pool.label }, { signal: ctx.signal });
      if (answer.exceeded.length) failures.push({ property: "version", reason: quotaRefusal(inputs, pool, answer.exceeded) });
    }
  } catch (err) {
    if (ctx.signal.aborted || err instanceof RequestAbortedError) throw err;
    ctx.run.quotaCheckUnavailable.add(region);
    ctx.log(
      `${clusterName}: the quota check for the upgrade could not be answered (${messageOf(err)}); the upgrade goes on without it. ` +
        `The project's quota must hold a second copy of each pool while the nodes are replaced.`,
      { warning: true },
    );
    return [];
  }
  return failures;
}
