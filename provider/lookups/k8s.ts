/**
 * `getK8sCluster` and `getK8sUpgradeVersions`: a managed Kubernetes cluster and the versions it
 * may be upgraded to now.
 *
 * Why: a program can read the live version (e.g. to feed `K8sClusterUpgrade.version`) and show
 * which upgrade step is permitted next.
 */
import type { K8sCluster } from "../api/cloud/k8s";
import type { LookupDefinition } from "./runtime";
import { ArgChecker } from "./validate";

/** Identifies a cluster: project, region and the cluster's name. */
export interface K8sClusterRef {
  /** Project id. */
  readonly projectId: number;
  /** Region id. */
  readonly regionId: number;
  /** The cluster's name (the user-defined identifier in paths, not a UUID). */
  readonly clusterName: string;
}

/** Arguments of `getK8sCluster`. */
export interface GetK8sClusterArgs extends K8sClusterRef {}

/** Result of `getK8sCluster`: the cluster as read now. */
export interface GetK8sClusterResult extends K8sCluster {
  /** Project id of the cluster. */
  readonly projectId: number;
  /** Region id of the cluster. */
  readonly regionId: number;
}

/** Arguments of `getK8sUpgradeVersions`. */
export interface GetK8sUpgradeVersionsArgs extends K8sClusterRef {}

/** Result of `getK8sUpgradeVersions`. */
export interface GetK8sUpgradeVersionsResult extends K8sClusterRef {
  /** Versions permitted now (one minor step; typically one entry; empty = no upgrade available). */
  readonly versions: readonly string[];
}

function normalizeRef(lookup: string, raw: unknown): K8sClusterRef {
  const c = new ArgChecker(lookup, raw, ["projectId", "regionId", "clusterName"]);
  return { projectId: c.int("projectId", 1), regionId: c.int("regionId", 1), clusterName: c.string("clusterName") };
}

/** `getK8sCluster`. */
export const getK8sClusterLookup: LookupDefinition<GetK8sClusterArgs, K8sClusterRef, GetK8sClusterResult> = {
  name: "getK8sCluster",
  normalize: (raw) => normalizeRef("getK8sCluster", raw),
  async execute({ client }, a) {
    const cluster = await client.cloud.k8s.getCluster(a.projectId, a.regionId, a.clusterName);
    return { ...cluster, projectId: a.projectId, regionId: a.regionId };
  },
};

/** `getK8sUpgradeVersions`. */
export const getK8sUpgradeVersionsLookup: LookupDefinition<GetK8sUpgradeVersionsArgs, K8sClusterRef, GetK8sUpgradeVersionsResult> = {
  name: "getK8sUpgradeVersions",
  normalize: (raw) => normalizeRef("getK8sUpgradeVersions", raw),
  async execute({ client }, a) {
    const page = await client.cloud.k8s.upgradeVersions(a.projectId, a.regionId, a.clusterName);
    return { ...a, versions: page.results.map((v) => v.version) };
  },
};
