/** Managed Kubernetes v2, what `K8sClusterUpgrade` reads and writes. */
import type { OffsetPage, OffsetPagerOptions } from "../pagination";
import { offsetEndpoint } from "../pagedEndpoint";
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { offsetPage, offsetPageWithoutCount, optionalBoolean, optionalInt, optionalList, optionalStringMap, optionalText, text, type Answer } from "../schema";
import { k8sAuthentication, k8sCni, k8sLogging } from "./k8sSettings";
import { taskIdListSchema, type TaskIdList } from "./tasks";
import { checkPoolQuota, type PoolQuotaCheck, type PoolQuotaRequest } from "./k8sPoolQuota";

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
    auto_healing_enabled: optionalBoolean,
    is_public_ipv4: optionalBoolean,
    boot_volume_size: optionalInt,
    boot_volume_type: optionalText,
    labels: optionalStringMap,
    taints: optionalStringMap,
    created_at: optionalText,
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
    /** Whether failed nodes are replaced automatically; null when not reported. */
    autoHealingEnabled: p.auto_healing_enabled,
    /** Whether the nodes have public IPv4 addresses; null when not reported. */
    isPublicIpv4: p.is_public_ipv4,
    /** Size of each node's boot volume, in GiB. */
    bootVolumeSize: p.boot_volume_size,
    /** Volume type of each node's boot volume (e.g. `ssd_hiiops`). */
    bootVolumeType: p.boot_volume_type,
    /** Kubernetes labels put on the pool's nodes, key to value; `{}` when none. */
    labels: p.labels,
    /** Kubernetes taints put on the pool's nodes, key to `value:effect`; `{}` when none. */
    taints: p.taints,
    /** When the pool was created, ISO 8601 as sent. */
    createdAt: p.created_at,
  }));

/** A node pool of a cluster. */
export interface K8sPool extends Answer<typeof poolFields> {}

const poolSchema: z.ZodType<K8sPool> = poolFields;

/** `null` is "not locked" (OpenAPI); `undefined` (not sent, or empty) is "unclear", never "unlocked". */
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
 * Only `name` (the path identifier) is required: a cluster still provisioning may have no
 * version or status, and must not break a list; the upgrade checks its own target's.
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
    fixed_network: optionalText,
    fixed_subnet: optionalText,
    is_ipv6: optionalBoolean,
    pods_ip_pool: optionalText,
    pods_ipv6_pool: optionalText,
    services_ip_pool: optionalText,
    services_ipv6_pool: optionalText,
    cni: k8sCni,
    authentication: k8sAuthentication,
    logging: k8sLogging,
    autoscaler_config: optionalStringMap,
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
    /** Id of the network the nodes are in; null when not set (a network made for the cluster). */
    fixedNetwork: w.fixed_network,
    /** Id of the subnet the nodes are in; null when not set. */
    fixedSubnet: w.fixed_subnet,
    /** Whether the cluster has public IPv6 addresses; null when not reported. */
    isIpv6: w.is_ipv6,
    /** The IPv4 CIDR pods take addresses from. */
    podsIpPool: w.pods_ip_pool,
    /** The IPv6 CIDR pods take addresses from. */
    podsIpv6Pool: w.pods_ipv6_pool,
    /** The IPv4 CIDR of the cluster's services. */
    servicesIpPool: w.services_ip_pool,
    /** The IPv6 CIDR of the cluster's services. */
    servicesIpv6Pool: w.services_ipv6_pool,
    /** The CNI (`calico` or `cilium`) and Cilium's settings; null when not reported. */
    cni: w.cni,
    /** How the cluster's API authenticates users (kubeconfig dates, OIDC); null when not reported. */
    authentication: w.authentication,
    /** Log streaming of the cluster; null when not reported. */
    logging: w.logging,
    /** Overrides of the cluster autoscaler's parameters, name to value; `{}` when none. */
    autoscalerConfig: w.autoscaler_config,
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

/** Each version well-shaped (the planner decides on every entry); the results are the whole list. */
export const upgradeVersionsSchema = offsetPageWithoutCount(upgradeVersionFields);

/** The Kubernetes functions of the client. */
export interface K8sApi {
  /** Read one cluster by name (404 NotFoundError when it does not exist). */
  getCluster(projectId: number, regionId: number, clusterName: string, options?: RequestOptions): Promise<K8sCluster>;
  listClusters(projectId: number, regionId: number, page?: { limit?: number; offset?: number }, options?: RequestOptions): Promise<OffsetPage<K8sCluster>>;
  listAllClusters(projectId: number, regionId: number, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<K8sCluster[]>;
  /** The versions permitted now (one minor step; empty when none). */
  upgradeVersions(projectId: number, regionId: number, clusterName: string, options?: RequestOptions): Promise<OffsetPage<K8sUpgradeVersion>>;
  /** A write: never repeated after an ambiguous failure. */
  upgrade(projectId: number, regionId: number, clusterName: string, version: string, options?: RequestOptions): Promise<TaskIdList>;
  /** The quotas a new pool would exceed (`POST .../pools/check_limits` changes nothing). */
  checkPoolQuota(projectId: number, regionId: number, pool: PoolQuotaRequest, options?: RequestOptions): Promise<PoolQuotaCheck>;
}

/** Bind the Kubernetes functions to a transport. */
export function k8sApi(t: Transport): K8sApi {
  const clusters = offsetEndpoint<[projectId: number, regionId: number], { limit?: number; offset?: number }, K8sCluster>(t, {
    path: (projectId, regionId) => apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}`,
    query: { limit: "limit", offset: "offset" },
    page: clusterPageSchema,
    idOf: (c) => c.name,
  });
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
    listClusters: clusters.list,
    listAllClusters: (projectId, regionId, pager, options) => clusters.listAll(projectId, regionId, {}, pager, options),
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
    checkPoolQuota: (projectId, regionId, pool, options) => checkPoolQuota(t, projectId, regionId, pool, options),
  };
}
