/**
 * Reading one cluster for K8sClusterUpgrade, with the lifecycle's own minimum check of what came.
 *
 * Why on top of the client's validation: every decision of this resource (already there? drift?
 * downgrade? did the step land?) compares the cluster's `version`, and a cluster read as
 * `version: ""` or `status: ""` would turn into a bogus drift, a refused "downgrade" or a second
 * upgrade. So a cluster without a well-formed version and a status is never used: the read is
 * "unclear" (`absence.ts`) and the operation stops before it writes.
 */
import type { K8sCluster } from "../../api";
import { readOne, type Presence } from "../absence";
import type { LifecycleContext } from "../lifecycle";
import { parseVersion } from "./version";

/** What is wrong with a cluster as read, or undefined when it can be relied on. */
export function clusterProblem(cluster: K8sCluster): string | undefined {
  if (typeof cluster?.version !== "string" || !parseVersion(cluster.version)) return `"version" is ${JSON.stringify(cluster?.version)}, not v<major>.<minor>.<patch>`;
  if (typeof cluster.status !== "string" || cluster.status === "") return `"status" is ${JSON.stringify(cluster.status)}`;
  return undefined;
}

/** `cluster prod-cluster (project 1, region 76)`, for messages. */
export function describeCluster(projectId: number, regionId: number, clusterName: string): string {
  return `cluster ${clusterName} (project ${projectId}, region ${regionId})`;
}

/** Reads the cluster: present (well-formed), absent (a well-formed 404) or unclear. */
export function readCluster(ctx: LifecycleContext, projectId: number, regionId: number, clusterName: string): Promise<Presence<K8sCluster>> {
  return readOne(() => ctx.client().cloud.k8s.getCluster(projectId, regionId, clusterName), clusterProblem);
}
