/**
 * The preview-time check against the live cluster: read it and its permitted upgrade versions
 * and reject a downgrade or an unreachable target before anything is written, then ask whether
 * the project's quota holds the upgrade (`capacity.ts`).
 *
 * Why at check time: `pulumi preview` runs `check` but never `create`/`update`, so this is the
 * only place a user can learn before `up` that the plan cannot work. It only reads.
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
 * Read the cluster and `upgrade_versions` and judge the target; for an upgrade the plan allows,
 * check the quota it needs. A missing cluster (a well-formed
 * 404) is a failure on `clusterName`; an already running upgrade is fine (create/update will
 * wait for it). Other API errors (auth, network, a malformed answer) propagate, so preview
 * reports them as errors; a cluster read without a usable version is one too.
 *
 * With `multiStepUnknown` (the `allowMultiStep` input is not known yet) the target is judged as
 * if several steps were allowed, so only what fails either way is rejected.
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
