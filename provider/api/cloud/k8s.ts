/**
 * Managed Kubernetes v2: read clusters, list permitted upgrade versions, start an upgrade.
 *
 * Why: the `K8sClusterUpgrade` resource reads the live version and lock (`taskId`), follows
 * `upgrade_versions` one step at a time and starts each step with `upgrade`.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { bodyList, bodyObject, bool, numOrNull, objArray, str, strOrNull, type WireObject } from "../wire";
import { taskIdListFromWire, type TaskIdList } from "./tasks";

/** A node pool of a cluster. */
export interface K8sPool {
  /** Pool id. */
  readonly id: string;
  /** Pool name. */
  readonly name: string;
  /** Flavor of the pool's nodes. */
  readonly flavorId: string;
  /** Current number of nodes, when reported. */
  readonly nodeCount: number | null;
  /** Autoscaling minimum, when set. */
  readonly minNodeCount: number | null;
  /** Autoscaling maximum, when set. */
  readonly maxNodeCount: number | null;
  /** Pool status, as sent. */
  readonly status: string;
}

/** A managed Kubernetes cluster. */
export interface K8sCluster {
  /** The cluster's UUID. */
  readonly id: string;
  /** The user-defined name that identifies it in paths. */
  readonly name: string;
  /** `v<major>.<minor>.<patch>`. */
  readonly version: string;
  /** Provisioned, Provisioning, Deleting, ... as sent. */
  readonly status: string;
  /** Id of the task locking the cluster (e.g. a running upgrade); null when not locked. */
  readonly taskId: string | null;
  /** Id of the task that created the cluster, when reported. */
  readonly creatorTaskId: string | null;
  /** Whether the cluster's API endpoint is public. */
  readonly isPublic: boolean;
  /** Name of the SSH key pair of the nodes, when set. */
  readonly keypair: string | null;
  /** Creation time, ISO 8601, as sent. */
  readonly createdAt: string | null;
  /** The cluster's node pools. */
  readonly pools: readonly K8sPool[];
}

/** A version a cluster may be upgraded to now. */
export interface K8sUpgradeVersion {
  /** A version the cluster may be upgraded to now. */
  readonly version: string;
}

/** Map one wire cluster. */
export function clusterFromWire(w: WireObject): K8sCluster {
  return {
    id: str(w["id"]),
    name: str(w["name"]),
    version: str(w["version"]),
    status: str(w["status"]),
    taskId: strOrNull(w["task_id"]),
    creatorTaskId: strOrNull(w["creator_task_id"]),
    isPublic: bool(w["is_public"]),
    keypair: strOrNull(w["keypair"]),
    createdAt: strOrNull(w["created_at"]),
    pools: objArray(w["pools"]).map((p) => ({
      id: str(p["id"]),
      name: str(p["name"]),
      flavorId: str(p["flavor_id"]),
      nodeCount: numOrNull(p["node_count"]),
      minNodeCount: numOrNull(p["min_node_count"]),
      maxNodeCount: numOrNull(p["max_node_count"]),
      status: str(p["status"]),
    })),
  };
}

/** The Kubernetes functions of the client. */
export interface K8sApi {
  /** Read one cluster by name (404 NotFoundError when it does not exist). */
  getCluster(projectId: number, regionId: number, clusterName: string, options?: RequestOptions): Promise<K8sCluster>;
  /** One page of the clusters of a project in a region. */
  listClusters(projectId: number, regionId: number, page?: { limit?: number; offset?: number }, options?: RequestOptions): Promise<OffsetPage<K8sCluster>>;
  /** Every cluster of a project in a region. */
  listAllClusters(projectId: number, regionId: number, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<K8sCluster[]>;
  /** The versions permitted now (one minor step; empty when none). */
  upgradeVersions(projectId: number, regionId: number, clusterName: string, options?: RequestOptions): Promise<OffsetPage<K8sUpgradeVersion>>;
  /**
   * Start a rolling upgrade to `version`; returns the task ids. A write: it is never repeated
   * after an ambiguous failure (see ConnectionError.mayHaveReachedServer).
   */
  upgrade(projectId: number, regionId: number, clusterName: string, version: string, options?: RequestOptions): Promise<TaskIdList>;
}

/** Bind the Kubernetes functions to a transport. */
export function k8sApi(t: Transport): K8sApi {
  const listClusters: K8sApi["listClusters"] = async (projectId, regionId, page = {}, options) => {
    const res = await t.request({
      method: "GET",
      path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}`,
      query: { limit: page.limit, offset: page.offset },
      options,
    });
    const list = bodyList(res);
    return { count: list.count, results: list.results.map(clusterFromWire) };
  };
  return {
    async getCluster(projectId, regionId, clusterName, options) {
      const res = await t.request({ method: "GET", path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}`, options });
      return clusterFromWire(bodyObject(res));
    },
    listClusters,
    listAllClusters: (projectId, regionId, pager = {}, options) => fetchAllOffset((p) => listClusters(projectId, regionId, p, options), pager),
    async upgradeVersions(projectId, regionId, clusterName, options) {
      const res = await t.request({
        method: "GET",
        path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}/upgrade_versions`,
        options,
      });
      const list = bodyList(res);
      return { count: list.count, results: list.results.map((v) => ({ version: str(v["version"]) })) };
    },
    async upgrade(projectId, regionId, clusterName, version, options) {
      const res = await t.request({
        method: "POST",
        path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}/upgrade`,
        body: { version },
        options,
      });
      return taskIdListFromWire(bodyObject(res));
    },
  };
}
