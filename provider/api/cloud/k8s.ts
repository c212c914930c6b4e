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
import { offsetPage, offsetPageWithoutCount, optionalBoolean, optionalInt, optionalList, optionalText, text, type Answer } from "../schema";
import { taskIdListSchema, type TaskIdList } from "./tasks";

/** `v<major>.<minor>.<patch>`, as the spec shapes Kubernetes versions (the upgrade planner parses it). */
const k8sVersion = z.string().regex(/^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/, "expected a version shaped v<major>.<minor>.<patch>");

const poolFields = z
  .object({
    id: optionalText,
    name: optionalText,
    flavor_id: optionalText,
    node_count: optionalInt,
    min_node_count: optionalInt,
    max_node_count: optionalInt,
    status: optionalText,
  })
  .transform((p) => ({
    /** Pool id, when reported. */
    id: p.id,
    /** Pool name, when reported. */
    name: p.name,
    /** Flavor of the pool's nodes, when reported. */
    flavorId: p.flavor_id,
    /** Current number of nodes, when reported. */
    nodeCount: p.node_count,
    /** Autoscaling minimum, when set. */
    minNodeCount: p.min_node_count,
    /** Autoscaling maximum, when set. */
    maxNodeCount: p.max_node_count,
    /** Pool status, as sent; null when not sent. */
    status: p.status,
  }));

/** A node pool of a cluster. */
export interface K8sPool extends Answer<typeof poolFields> {}

const poolSchema: z.ZodType<K8sPool> = poolFields;

/**
 * The lock `task_id` in three states: a task id (locked), `null` (not locked, as the OpenAPI
 * documents it) and `undefined` when the field is not sent at all (or sent empty), which says
 * nothing about a lock: the upgrade treats it as "unclear", never as "unlocked".
 */
const lockTaskId = z
  .string()
  .nullish()
  .transform((v): string | null | undefined => (v === "" ? undefined : v));

/** A string that may be left out; empty reads as not reported (a cluster still provisioning sends `version: ""`). */
const reportedText = z
  .string()
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * The wire cluster: only `name` is required, the identifier of every cluster path and what a
 * list is filtered by. `version` and `status` are kept as sent: a cluster still provisioning
 * may have neither, and must not break a list of the project's clusters. The upgrade lifecycle
 * checks the shape of its own target cluster's version and status where it decides on them.
 */
export const clusterSchema = z
  .object({
    id: optionalText,
    name: text,
    version: reportedText,
    status: reportedText,
    task_id: lockTaskId,
    creator_task_id: optionalText,
    is_public: optionalBoolean,
    keypair: optionalText,
    created_at: optionalText,
    pools: optionalList(poolSchema),
  })
  .transform((w) => ({
    /** The cluster's UUID, when reported. */
    id: w.id,
    /** The user-defined name that identifies it in paths. */
    name: w.name,
    /** `v<major>.<minor>.<patch>` as sent; null when not sent or empty (a cluster still provisioning). */
    version: w.version,
    /** Provisioned, Provisioning, Deleting, ... as sent; null when not sent or empty. */
    status: w.status,
    /**
     * Id of the task locking the cluster (e.g. a running upgrade); null when not locked. The
     * client's answer leaves it undefined when the API did not send the field (lock unknown);
     * the lookups return null then.
     */
    taskId: w.task_id,
    /** Id of the task that created the cluster, when reported. */
    creatorTaskId: w.creator_task_id,
    /** Whether the cluster's API endpoint is public; null when not reported. */
    isPublic: w.is_public,
    /** Name of the SSH key pair of the nodes, when set. */
    keypair: w.keypair,
    /** Creation time, ISO 8601, as sent. */
    createdAt: w.created_at,
    /** The cluster's node pools. */
    pools: w.pools,
  }));

/** A managed Kubernetes cluster. */
export interface K8sCluster extends Answer<typeof clusterSchema> {}

/** A page of clusters (`count` is the total). */
export const clusterPageSchema = offsetPage(clusterSchema);

const upgradeVersionFields = z.object({ version: k8sVersion }).transform((v) => ({
  /** A version the cluster may be upgraded to now. */
  version: v.version,
}));

/** A version a cluster may be upgraded to now. */
export interface K8sUpgradeVersion extends Answer<typeof upgradeVersionFields> {}

/**
 * The permitted upgrade targets: `{count, results: [{version}]}`, each version well-shaped (the
 * planner decides on every entry); `count` may be left out, the results are the whole list.
 */
export const upgradeVersionsSchema = offsetPageWithoutCount(upgradeVersionFields);

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
    listAllClusters: (projectId, regionId, pager = {}, options) => fetchAllOffset((p) => listClusters(projectId, regionId, p, options), { what: `GET ${apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}`}`, ...pager, idOf: (c) => c.name }),
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
