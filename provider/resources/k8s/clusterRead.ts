/**
 * Reading the target cluster strictly, where the client reads tolerantly: a cluster without a
 * version or status would turn into a bogus drift, "downgrade" or second upgrade, so it is
 * "unclear" and the operation stops before it writes.
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

/** Otherwise a PresenceUnclearError naming what is wrong and `operation` (what was done instead). */
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
