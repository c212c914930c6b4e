/**
 * Managed Kubernetes clusters in each dialect (CONTRACT.md "Dialects" row 6).
 */
import { omit, unchanged, withFuture, type ByDialect } from "../dialect";
import type { Cluster, JsonObject } from "../state";

/** How a dialect shapes clusters. */
export interface K8sAnswers {
  /** A cluster as answered (list item or GET). */
  cluster(cluster: JsonObject): JsonObject;
  /** Clusters the dialect adds to a project and region (new objects each call: nothing done to them persists). */
  extraClusters(projectId: number, regionId: number, existing: readonly Cluster[]): Cluster[];
}

/** Name of the cluster "public-api" adds to project 1 / region 76, still being created. */
export const PROVISIONING_CLUSTER_NAME = "provisioning-cluster";

/**
 * Optional cluster fields "public-api" leaves out. `task_id` is not one of them: it is the
 * documented lock signal, on every cluster in both dialects.
 */
const OPTIONAL_CLUSTER_FIELDS = [
  "creator_task_id", "authentication", "autoscaler_config", "cni", "ddos_profile", "fixed_network", "fixed_subnet",
  "is_ipv6", "pods_ip_pool", "services_ip_pool", "pods_ipv6_pool", "services_ipv6_pool",
];

/** Optional pool fields "public-api" leaves out (not required in `K8sClusterPoolV2Serializer`). */
const OPTIONAL_POOL_FIELDS = ["servergroup_id", "servergroup_name", "servergroup_policy"];

function publicCluster(cluster: JsonObject): JsonObject {
  const shaped = omit(cluster, OPTIONAL_CLUSTER_FIELDS);
  if (Array.isArray(shaped.pools)) {
    shaped.pools = (shaped.pools as JsonObject[]).map((p) => withFuture(omit(p, OPTIONAL_POOL_FIELDS)));
  }
  shaped.task_id = cluster.task_id ?? null;
  return withFuture(shaped);
}

/**
 * In project 1 / region 76, a cluster still being created, with only the required fields (a
 * client must not assume a version parses or pools exist). The public material requires
 * `version`, `pools` and `is_public`, hence `""`, `[]` and `false` rather than nothing.
 */
function publicExtraClusters(projectId: number, regionId: number, existing: readonly Cluster[]): Cluster[] {
  if (projectId !== 1 || regionId !== 76) return [];
  if (existing.some((c) => c.name === PROVISIONING_CLUSTER_NAME)) return [];
  return [
    {
      id: "5d1b8f0e-7c34-4a2b-9f61-0c2d3e4f5a6b",
      name: PROVISIONING_CLUSTER_NAME,
      project_id: projectId,
      region_id: regionId,
      version: "",
      status: "Provisioning",
      keypair: "deploy-key",
      is_public: false,
      created_at: "2026-11-01T00:00:00Z",
      task_id: null,
      pools: [],
      add_ons: { slurm: { enabled: false } },
      csi: { nfs: { vast_enabled: false, ddn_enabled: false } },
      logging: null,
    },
  ];
}

/** The cluster answers of each dialect. */
export const k8sAnswers: ByDialect<K8sAnswers> = {
  regular: { cluster: unchanged, extraClusters: () => [] },
  "public-api": { cluster: publicCluster, extraClusters: publicExtraClusters },
};
