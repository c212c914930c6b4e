/**
 * Simulator state: the data model and seed loading (the state file is stateStore.ts).
 *
 * Everything the simulator serves lives in one plain JSON-serialisable object so that it can be
 * dumped by the admin API, written to a state file after every change, and reloaded after a
 * restart (users run stacks against the simulator across several `pulumi up` sessions).
 */
import * as fs from "fs";
import defaultSeedJson from "./seed/default.json";

/** A JSON object with unknown extra fields (the spec leaves most fields "not shown"). */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a plain JSON object (not null, not a list): for request bodies and answers. */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The fields that are set: an optional field left out stays absent rather than `undefined`. */
export function definedOnly<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** A cloud project (`/cloud/v1/projects`). */
export interface Project extends JsonObject {
  id: number;
  name: string;
  is_default: boolean;
  state: string;
}

/** A cloud region (`/cloud/v1/regions`). */
export interface Region extends JsonObject {
  id: number;
  display_name: string;
  state: string;
}

/** A VM instance (`/cloud/v1/instances/{project_id}/{region_id}`). */
export interface Instance extends JsonObject {
  id: string;
  name: string;
  project_id: number;
  region_id: number;
  status: string;
}

/** A node pool of a managed Kubernetes cluster. */
export interface Pool extends JsonObject {
  name: string;
  node_count: number;
  /** Kubelet settings overriding the platform's defaults (string values; `{}` = none). */
  kubelet_config: Record<string, string>;
  /** CRI-O settings overriding the platform's defaults (string values; `{}` = none). */
  crio_config: Record<string, string>;
  /** Security groups of the pool's nodes. */
  security_group_ids: string[];
}

/** A managed Kubernetes cluster (`/cloud/v2/k8s/clusters/...`). */
export interface Cluster extends JsonObject {
  id: string;
  name: string;
  project_id: number;
  region_id: number;
  version: string;
  status: string;
  task_id: string | null;
  pools: Pool[];
  /** CSI drivers deployed in the cluster. */
  csi: { nfs: { vast_enabled: boolean; ddn_enabled: boolean } & JsonObject } & JsonObject;
}

/** A node flavor of the seed (`flavors`): what one node counts against the `cpu_count` and `ram` quotas (`quotas.ts`). */
export interface Flavor {
  flavor_id: string;
  vcpus: number;
  /** RAM in MiB. */
  ram: number;
}

/** A storage notification threshold (`/storage/notifications/v1/event`). */
export interface StoredEvent {
  uuid: string;
  name: string;
  storage_name?: string;
  bucket_name?: string;
  bytes?: number;
  count?: number;
  client_id?: number;
}

/** A streaming AI task record (`/streaming/ai/tasks`). */
export interface AiTask extends JsonObject {
  task_id: string;
  task_name: string;
  status: string;
  progress: number;
  task_data: JsonObject;
  started_at: string;
  /** When processing started and ended; each part null until it happened. */
  processing_time: { started_at: string | null; completed_at: string | null; total_time_sec: number | null };
}

/** Delegation status of one zone (`/dns/v2/analyze/{name}/delegation-status`). */
export interface DelegationStatus extends JsonObject {
  authoritative_name_servers: Array<{ name: string; ipv4Addresses: string[]; ipv6Addresses: string[] }>;
  service_authorized_count: number;
  non_service_authorized_count: number;
  is_whitelabel_delegation: boolean;
  zone_exists: boolean;
}

/**
 * A cloud task as stored. The visible state is not stored but computed from the real-time
 * schedule (`runAt`, `doneAt`) whenever it is read, so tasks keep progressing across restarts.
 */
export interface TaskRecord {
  id: string;
  task_type: string;
  project_id: number | null;
  region_id: number | null;
  /** Real epoch ms of creation. */
  createdAt: number;
  /** Real epoch ms at which NEW becomes RUNNING. */
  runAt: number;
  /** Real epoch ms at which RUNNING ends. */
  doneAt: number;
  /** Failure text decided at creation (quota, fail-next), or null for success. */
  error: string | null;
  /** Resources to report when FINISHED (every key present, mostly empty arrays). */
  createdResources: Record<string, string[]>;
  /** Operation parameters (`data` field of the task). */
  data: JsonObject | null;
  request_id: string | null;
  user_id: number;
  client_id: number;
  /** Whether the completion side effects (cluster version, lock release) were applied. */
  applied: boolean;
}

/**
 * A pool that turns unhealthy (admin API `POST /__admin/clusters/.../pools/{pool}/unhealthy`):
 * after the cluster's next upgrade ends (or at once), and after `reads_left` more reads of the
 * cluster, the pool reports `status` (and `node_count`, when set) from then on.
 */
export interface PoolHealthRule {
  project_id: number;
  region_id: number;
  cluster: string;
  pool: string;
  status: string;
  node_count: number | null;
  /** Whether the rule counts reads yet: set when the cluster's next upgrade ended, or at once. */
  armed: boolean;
  /** Reads of the cluster that still show the pool as it was, once armed. */
  reads_left: number;
}

/** A pending "fail the next task of this type" instruction from the admin API. */
export interface FailNext {
  task_type: string;
  error: string;
}

/**
 * The whole simulator state. Field order mirrors the seed file.
 *
 * `billing` is keyed client id -> metric -> date (YYYY-MM-DD) -> amount.
 */
export interface SimState {
  client: JsonObject;
  projects: Project[];
  regions: Region[];
  instances: Instance[];
  k8sVersions: string[];
  clusters: Cluster[];
  /** Node flavors: what one node of each counts against the `cpu_count` and `ram` quotas. */
  flavors: Flavor[];
  /** Quota limits by project id, by quota name (`quotas.ts`; absent = unlimited). */
  quotas: Record<string, Record<string, number>>;
  /** Pools set to turn unhealthy (admin API). */
  poolHealth: PoolHealthRule[];
  storageEvents: StoredEvent[];
  aiTasks: AiTask[];
  billing: Record<string, Record<string, Record<string, number>>>;
  delegation: Record<string, DelegationStatus>;
  tasks: TaskRecord[];
  failNext: FailNext[];
}

/** Deep copy through JSON; the state holds only JSON values. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function asArray<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function asObject<T>(value: unknown, fallback: T): T {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as T) : fallback;
}

/**
 * Builds a complete state from a (possibly partial) seed object.
 *
 * Why lenient: users write their own seeds for offline stacks; every section is optional and
 * missing per-item fields get sensible defaults, so a seed can be as small as one cluster.
 */
export function normalizeSeed(seed: unknown): SimState {
  const s = asObject<JsonObject>(cloneJson(seed ?? {}), {});
  const clusters = asArray<Cluster>(s.clusters).map((c) => {
    const csi = asObject<JsonObject>(c.csi, {});
    const nfs = asObject<JsonObject>(csi.nfs, {});
    return {
      ...c,
      status: c.status ?? "Provisioned",
      task_id: c.task_id ?? null,
      pools: asArray<Pool>(c.pools).map((p) => ({
        ...p,
        kubelet_config: asObject<Record<string, string>>(p.kubelet_config, {}),
        crio_config: asObject<Record<string, string>>(p.crio_config, {}),
        security_group_ids: asArray<string>(p.security_group_ids),
      })),
      csi: { ...csi, nfs: { ...nfs, vast_enabled: nfs.vast_enabled === true, ddn_enabled: nfs.ddn_enabled === true } },
    };
  });
  return {
    client: asObject<JsonObject>(s.client, { id: 1, email: "user@example.com", status: "active" }),
    projects: asArray<Project>(s.projects).map((p) => ({ ...p, state: p.state ?? "ACTIVE", is_default: p.is_default ?? false })),
    regions: asArray<Region>(s.regions).map((r) => ({ ...r, state: r.state ?? "ACTIVE" })),
    instances: asArray<Instance>(s.instances).map((i) => ({ ...i, status: i.status ?? "ACTIVE" })),
    k8sVersions: asArray<string>(s.k8sVersions),
    clusters,
    flavors: asArray<Flavor>(s.flavors),
    quotas: asObject<SimState["quotas"]>(s.quotas, {}),
    poolHealth: asArray<PoolHealthRule>(s.poolHealth),
    storageEvents: asArray<StoredEvent>(s.storageEvents),
    aiTasks: asArray<AiTask>(s.aiTasks).map((t) => ({ ...t, processing_time: t.processing_time ?? defaultProcessingTime(t) })),
    billing: asObject<SimState["billing"]>(s.billing, {}),
    delegation: asObject<Record<string, DelegationStatus>>(s.delegation, {}),
    tasks: asArray<TaskRecord>(s.tasks),
    failNext: asArray<FailNext>(s.failNext),
  };
}

/** AI task statuses that mean processing has not started yet. */
const NOT_STARTED = ["PENDING", "RECEIVED"];

/**
 * `processing_time` of a seeded AI task that does not give one: started at its `started_at`
 * unless it has not started yet; the end and duration are unknown (null), as for a task still
 * running.
 */
function defaultProcessingTime(t: AiTask): AiTask["processing_time"] {
  const started = NOT_STARTED.includes(t.status) || typeof t.started_at !== "string" ? null : t.started_at;
  return { started_at: started, completed_at: null, total_time_sec: null };
}

/** Resolves the `seed` option: a path to a JSON file, an object, or the default seed. */
export function loadSeed(seed: string | object | undefined): SimState {
  if (seed === undefined) return normalizeSeed(defaultSeedJson);
  if (typeof seed === "string") {
    const text = fs.readFileSync(seed, "utf8");
    return normalizeSeed(JSON.parse(text));
  }
  return normalizeSeed(seed);
}
