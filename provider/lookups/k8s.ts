/** Cluster lookups: the names every cluster path needs, the live version, the next permitted step. */
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

/** Arguments of `getK8sClusters`. */
export interface GetK8sClustersArgs {
  /** Project id (e.g. from `getProject`). */
  readonly projectId: number;
  /** Region id (e.g. from `getRegion`). */
  readonly regionId: number;
  /** Only clusters whose name contains this text (case-insensitive). */
  readonly name?: string;
  /** Clusters per request, 1..1000 (default 1000, the API's maximum). */
  readonly pageSize?: number;
  /** Stop after this many (matching) clusters (default: all). */
  readonly maxResults?: number;
}

/** One cluster in the `getK8sClusters` result: what a program needs to pick and address it. */
export interface K8sClusterSummary {
  /** The cluster's UUID; null when the API did not send it. */
  readonly id: string | null;
  /** Its name, the identifier in every cluster path (`clusterName` of the other lookups and of `K8sClusterUpgrade`). */
  readonly name: string;
  /** Kubernetes version `v<major>.<minor>.<patch>` as the API sends it; null while the cluster is still provisioning. */
  readonly version: string | null;
  /** Provisioned, Provisioning, Deleting, ... as the API sends it; null when not sent. */
  readonly status: string | null;
  /** Id of the task keeping the cluster busy (e.g. a running upgrade); null when it is not busy or the API does not say. */
  readonly taskId: string | null;
}

/** Result of `getK8sClusters`. */
export interface GetK8sClustersResult {
  /** The project asked for. */
  readonly projectId: number;
  /** The region asked for. */
  readonly regionId: number;
  /** The matching clusters, in the API's order. */
  readonly clusters: readonly K8sClusterSummary[];
  /** Their names, in the same order. */
  readonly names: readonly string[];
}

interface NormalizedClusters {
  readonly projectId: number;
  readonly regionId: number;
  readonly name: string | undefined;
  readonly pageSize: number;
  readonly maxResults: number | undefined;
}

/** `getK8sClusters`. */
export const getK8sClustersLookup: LookupDefinition<GetK8sClustersArgs, NormalizedClusters, GetK8sClustersResult> = {
  name: "getK8sClusters",
  normalize(raw) {
    const c = new ArgChecker("getK8sClusters", raw, ["projectId", "regionId", "name", "pageSize", "maxResults"]);
    return {
      projectId: c.int("projectId", 1),
      regionId: c.int("regionId", 1),
      name: c.optionalString("name"),
      pageSize: c.optionalInt("pageSize", 1, 1000) ?? 1000,
      maxResults: c.optionalInt("maxResults", 1),
    };
  },
  async execute({ client }, a) {
    // The list endpoint has no name filter, so with one every page is read and filtered here.
    const cap = a.name === undefined && a.maxResults !== undefined ? { max: a.maxResults } : {};
    const all = await client.cloud.k8s.listAllClusters(a.projectId, a.regionId, { pageSize: a.pageSize, ...cap });
    const needle = a.name?.toLowerCase();
    const matching = needle === undefined ? all : all.filter((c) => c.name.toLowerCase().includes(needle));
    const clusters = matching
      .slice(0, a.maxResults ?? matching.length)
      .map((c) => ({ id: c.id, name: c.name, version: c.version, status: c.status, taskId: c.taskId ?? null }));
    return { projectId: a.projectId, regionId: a.regionId, clusters, names: clusters.map((c) => c.name) };
  },
};

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
    return { ...cluster, taskId: cluster.taskId ?? null, projectId: a.projectId, regionId: a.regionId };
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
