/**
 * Reading one cluster for K8sClusterUpgrade, with the lifecycle's own check of what came.
 *
 * Why here and not in the client's schema: the client reads clusters tolerantly (a cluster still
 * provisioning has no version, and must not break a list of them), but every decision of this
 * resource (already there? drift? downgrade? did the step land?) compares its own target
 * cluster's `version`, and a cluster read as `version: ""` or without a status would turn into a
 * bogus drift, a refused "downgrade" or a second upgrade. So the target cluster must be a
 * {@link UsableCluster}; one that is not is never acted on: the read is "unclear"
 * (`absence.ts`) and the operation stops before it writes.
 */
import type { K8sCluster } from "../../api";
import { PresenceUnclearError, readOne, type Presence } from "../absence";
import type { LifecycleContext } from "../lifecycle";
import type { UsableCluster } from "./types";
import { parseVersion } from "./version";

/** What is wrong with a cluster as read, or undefined when it can be relied on. */
export function clusterProblem(cluster: K8sCluster): string | undefined {
  if (typeof cluster?.version !== "string" || !parseVersion(cluster.version)) return `"version" is ${JSON.stringify(cluster?.version ?? null)}, not v<major>.<minor>.<patch>`;
  if (typeof cluster.status !== "string" || cluster.status === "") return `"status" is ${JSON.stringify(cluster.status ?? null)}`;
  if (typeof cluster.id !== "string" || cluster.id === "") return `"id" is ${JSON.stringify(cluster.id ?? null)}`;
  return undefined;
}

/** True when {@link clusterProblem} finds nothing wrong. */
export function isUsableCluster(cluster: K8sCluster): cluster is UsableCluster {
  return clusterProblem(cluster) === undefined;
}

/**
 * The cluster as read, when it is usable; otherwise a PresenceUnclearError naming the cluster,
 * what is wrong with the answer and `operation` (what was, or was not, done instead).
 */
export function requireUsableCluster(cluster: K8sCluster, projectId: number, regionId: number, clusterName: string, operation: string): UsableCluster {
  if (isUsableCluster(cluster)) return cluster;
  throw new PresenceUnclearError(describeCluster(projectId, regionId, clusterName), operation, `the answer is malformed: ${clusterProblem(cluster)}`);
}

/** `cluster prod-cluster (project 1, region 76)`, for messages. */
export function describeCluster(projectId: number, regionId: number, clusterName: string): string {
  return `cluster ${clusterName} (project ${projectId}, region ${regionId})`;
}

/** Reads the cluster: present (usable), absent (a well-formed 404) or unclear. */
export async function readCluster(ctx: LifecycleContext, projectId: number, regionId: number, clusterName: string): Promise<Presence<UsableCluster>> {
  const found = await readOne(() => ctx.client().cloud.k8s.getCluster(projectId, regionId, clusterName), clusterProblem);
  if (found.state !== "present") return found;
  const cluster = found.value;
  return isUsableCluster(cluster) ? { state: "present", value: cluster } : { state: "unclear", reason: `the answer is malformed: ${clusterProblem(cluster)}` };
}
