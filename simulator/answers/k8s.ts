/**
 * Managed Kubernetes clusters as each dialect answers them (CONTRACT.md "Dialects").
 *
 * Each function takes the answer the regular dialect builds and returns the answer to send:
 * unchanged for "regular", shaped as the public material allows for "public-api" (`dialect.ts`).
 */
import { isPublicApi, omit, withFuture, type SimulatorDialect } from "../dialect";
import type { Cluster, JsonObject } from "../state";

/** Name of the cluster "public-api" adds to project 1 / region 76, still being created. */
export const PROVISIONING_CLUSTER_NAME = "provisioning-cluster";

/**
 * Optional cluster fields "public-api" leaves out (optional in the OpenAPI
 * `K8sClusterV2Serializer` and `Optional = None` in the Python SDK's `K8SCluster`). The
 * required ones (`id`, `name`, `version`, `status`, `pools`, `keypair`, `is_public`,
 * `created_at`, `add_ons`, `csi`, `logging`) stay, and so does `task_id`: it is the documented
 * lock signal, null when unlocked, so every cluster carries it in both dialects.
 */
const OPTIONAL_CLUSTER_FIELDS = [
  "creator_task_id", "authentication", "autoscaler_config", "cni", "ddos_profile", "fixed_network", "fixed_subnet",
  "is_ipv6", "pods_ip_pool", "services_ip_pool", "pods_ipv6_pool", "services_ipv6_pool",
];

/** Optional pool fields "public-api" leaves out (not required in `K8sClusterPoolV2Serializer`). */
const OPTIONAL_POOL_FIELDS = ["servergroup_id", "servergroup_name", "servergroup_policy"];

/**
 * A cluster as answered (list item or GET). "public-api": optional fields omitted, pools without
 * their optional fields, an unknown field on the cluster and on each pool; `task_id` kept.
 */
export function clusterAnswer(dialect: SimulatorDialect, cluster: JsonObject): JsonObject {
  if (!isPublicApi(dialect)) return cluster;
  const shaped = omit(cluster, OPTIONAL_CLUSTER_FIELDS);
  if (Array.isArray(shaped.pools)) {
    shaped.pools = (shaped.pools as JsonObject[]).map((p) => withFuture(omit(p, OPTIONAL_POOL_FIELDS)));
  }
  shaped.task_id = cluster.task_id ?? null;
  return withFuture(shaped);
}

/**
 * Clusters "public-api" adds: in project 1 / region 76 (unless a cluster has its name), one
 * cluster still being created: status `Provisioning`, `version` empty, no pools yet, not
 * locked (`task_id` null: the task that creates it is not one of the simulator's), and only
 * the fields the OpenAPI and the Python SDK require. Why: a list is not all `Provisioned`
 * clusters at a version; a client must not assume a version string parses or pools exist.
 * The public material requires `version` (string), `pools` (list) and `is_public`, so they are
 * sent as `""`, `[]` and `false` rather than left out. A new object each call: nothing a
 * handler does to it persists.
 */
export function extraClusters(dialect: SimulatorDialect, projectId: number, regionId: number, existing: readonly Cluster[]): Cluster[] {
  if (!isPublicApi(dialect) || projectId !== 1 || regionId !== 76) return [];
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
