/**
 * Managed Kubernetes v2: read clusters, list permitted upgrade versions, start an upgrade.
 *
 * Why: the `K8sClusterUpgrade` resource reads the live version and lock (`taskId`), follows
 * `upgrade_versions` one step at a time and starts each step with `upgrade`.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { offsetPage, optionalInt, optionalText, text } from "../schema";
import { taskIdListSchema, type TaskIdList } from "./tasks";

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

/** `v<major>.<minor>.<patch>`, as the spec shapes Kubernetes versions (the upgrade planner parses it). */
const k8sVersion = z.string().regex(/^v\d+\.\d+\.\d+$/, "expected a version shaped v<major>.<minor>.<patch>");

const poolSchema = z
  .object({
    id: text,
    name: text,
    flavor_id: text,
    node_count: optionalInt,
    min_node_count: optionalInt,
    max_node_count: optionalInt,
    status: text,
  })
  .transform(
    (p): K8sPool => ({
      id: p.id,
      name: p.name,
      flavorId: p.flavor_id,
      nodeCount: p.node_count,
      minNodeCount: p.min_node_count,
      maxNodeCount: p.max_node_count,
      status: p.status,
    }),
  );

/**
 * The wire cluster: `version` and `status` (what the upgrade lifecycle decides on) are required
 * with the spec's shape, and so are `id`, `name`, `pools` and `is_public`, which the platform
 * always sends; the lock `task_id` and the rest are open.
 */
export const clusterSchema = z
  .object({
    id: text,
    name: text,
    version: k8sVersion,
    status: text,
    task_id: optionalText,
    creator_task_id: optionalText,
    is_public: z.boolean(),
    keypair: optionalText,
    created_at: optionalText,
    pools: z.array(poolSchema),
  })
  .transform(
    (w): K8sCluster => ({
      id: w.id,
      name: w.name,
      version: w.version,
      status: w.status,
      taskId: w.task_id,
      creatorTaskId: w.creator_task_id,
      isPublic: w.is_public,
      keypair: w.keypair,
      createdAt: w.created_at,
      pools: w.pools,
    }),
  );

/** A page of clusters (`count` is the total). */
export const clusterPageSchema = offsetPage(clusterSchema);

/** The permitted upgrade targets: `{count, results: [{version}]}`, each version well-shaped. */
export const upgradeVersionsSchema = offsetPage(z.object({ version: k8sVersion }).transform((v): K8sUpgradeVersion => ({ version: v.version })));

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
      response: clusterPageSchema,
    });
    return res.data;
  };
  return {
    async getCluster(projectId, regionId, clusterName, options) {
      const res = await t.request({
        method: "GET",
        path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}`,
        options,
        response: clusterSchema,
      });
      return res.data;
    },
    listClusters,
    listAllClusters: (projectId, regionId, pager = {}, options) => fetchAllOffset((p) => listClusters(projectId, regionId, p, options), { what: `GET ${apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}`}`, ...pager }),
    async upgradeVersions(projectId, regionId, clusterName, options) {
      const res = await t.request({
        method: "GET",
        path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}/upgrade_versions`,
        options,
        response: upgradeVersionsSchema,
      });
      return res.data;
    },
    async upgrade(projectId, regionId, clusterName, version, options) {
      const res = await t.request({
        method: "POST",
        path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}/upgrade`,
        body: { version },
        options,
        response: taskIdListSchema,
      });
      return res.data;
    },
  };
}
