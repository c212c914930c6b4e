/**
 * The check against the live cluster: `pulumi preview` runs `check` but never `create`/`update`,
 * so this is the only place to learn before `up` that the plan cannot work. It only reads.
 */
import type { K8sCluster } from "../../api";
import { isWellFormedNotFound } from "../absence";
import type { CheckFailure, LifecycleContext } from "../lifecycle";
import { withRefusalCode } from "../refusals";
import { checkUpgradeCapacity } from "./capacity";
import { requireUsableCluster } from "./clusterRead";
import { planNextStep } from "./plan";
import type { K8sClusterUpgradeInputs } from "./types";

/**
 * A missing cluster is a failure on `clusterName`; a running upgrade is fine (create/update wait
 * for it). With `multiStepUnknown`, only what fails either way is rejected.
 */
export async function checkAgainstCluster(
  ctx: LifecycleContext,
  inputs: K8sClusterUpgradeInputs,
  multiStepUnknown: boolean,
): Promise<CheckFailure[]> {
  const { projectId, regionId, clusterName, version } = inputs;
  const k8s = ctx.client().cloud.k8s;
  // A read of this cluster made moments ago in this run (refresh, an earlier check) will do.
  const recent = ctx.run.clusterReads.peek(projectId, regionId, clusterName);
  let read: K8sCluster;
  try {
    read = recent?.cluster ?? (await k8s.getCluster(projectId, regionId, clusterName));
  } catch (err) {
    if (isWellFormedNotFound(err)) {
      return [
        {
          property: "clusterName",
          reason: withRefusalCode(
            "CLOUDPLATFORM_CLUSTER_NOT_FOUND",
            `cluster ${clusterName} was not found in project ${projectId}, region ${regionId} (${err.serverMessage || "404"})`,
          ),
        },
      ];
    }
    throw err;
  }
  const cluster = requireUsableCluster(read, projectId, regionId, clusterName, "nothing was checked or written");
  const current = cluster.version;
  if (current === version) {
    ctx.run.clusterReads.remember(projectId, regionId, cluster, undefined, recent?.readAt);
    return [];
  }
  const permitted = recent?.permitted ?? (await k8s.upgradeVersions(projectId, regionId, clusterName)).results.map((v) => v.version);
  ctx.run.clusterReads.remember(projectId, regionId, cluster, permitted, recent?.readAt);
  const decision = planNextStep({
    clusterName,
    current,
    target: version,
    permitted,
    allowMultiStep: multiStepUnknown || inputs.allowMultiStep,
  });
  if (decision.kind === "rejected") return [{ property: "version", reason: decision.reason }];
  // One check per upgrade, however many steps: each step replaces the same pools.
  return decision.kind === "step" ? checkUpgradeCapacity(ctx, inputs, cluster) : [];
}
