/**
 * Answer dialects (CONTRACT.md "Dialects").
 *
 * The simulator is written from the spec, and by default ("regular") its answers are the most
 * regular the spec allows: every field present, lists as `[]`, the spec's field names, pages as
 * large as asked. The live platform is less tidy. The "public-api" dialect makes the answers
 * take every shape the platform's PUBLIC material allows (its OpenAPI files, the official
 * Python SDK's models, the older hand-written Go SDK and its fixtures): optional fields left
 * out, empty lists sent as `null`, older field names, server-side page caps, unknown fields and
 * enum values, JSON labelled as text. A client that works against both dialects does not depend
 * on anything the public material leaves open.
 *
 * Design: every function here takes the answer the regular dialect builds and returns the
 * answer to send, unchanged for "regular". Routes call them at the one place each answer is
 * serialised, so the behaviour (lifecycles, locks, validation, errors) is shared by both
 * dialects and only shapes differ. Nothing here mutates the state: answers are rebuilt.
 * Variants that apply to "some" items depend on the item's position or name, never on chance,
 * so tests are repeatable.
 */
import type { RouteResult } from "./router";
import type { Cluster, JsonObject, Region } from "./state";

/** How the simulator shapes its answers: the spec's regular shapes, or the public API's variety. */
export type SimulatorDialect = "regular" | "public-api";

/** Every dialect, in the order error messages list them. */
export const DIALECTS: readonly SimulatorDialect[] = ["regular", "public-api"];

/** Whether a value names a dialect; for validating options, CLI flags and admin bodies. */
export function isDialect(value: unknown): value is SimulatorDialect {
  return typeof value === "string" && (DIALECTS as readonly string[]).includes(value);
}

/**
 * Checks a dialect name from outside (option, `--dialect`, `POST /__admin/dialect`).
 *
 * Why throw with the allowed values: a typo must not silently run the regular dialect.
 * @param what how the caller names the value in the message (e.g. `--dialect`)
 */
export function parseDialect(value: unknown, what = "dialect"): SimulatorDialect {
  if (isDialect(value)) return value;
  throw new Error(`${what} must be one of: ${DIALECTS.join(", ")} (got ${JSON.stringify(value) ?? "nothing"})`);
}

/**
 * Most items an offset-paged cloud list (projects, regions, instances, tasks, clusters) returns
 * under "public-api", whatever `limit` asks. Why: servers cap pages below the requested size;
 * a client must follow `count` (or page until an empty page), not trust `limit`.
 */
export const PUBLIC_API_PAGE_CAP = 10;

/** Name of the unknown field "public-api" adds wherever an answer may carry unknown fields. */
export const FUTURE_FIELD = "x_future_field";

/**
 * Value of the unknown field: an object, the hardest kind to ignore by accident (a client that
 * copies unknown fields into typed outputs or iterates every key meets it).
 */
export function futureValue(): JsonObject {
  return { introduced_in: "a later API version", enabled: true, items: [1, 2] };
}

function pub(dialect: SimulatorDialect): boolean {
  return dialect === "public-api";
}

/** A copy of `obj` with the unknown field added. */
function withFuture(obj: JsonObject): JsonObject {
  return { ...obj, [FUTURE_FIELD]: futureValue() };
}

/** A copy of `obj` without `keys`. */
function omit(obj: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/** `null` for an empty or absent list (a Go server's nil slice), the list otherwise. */
function nilIfEmpty<T>(list: T[] | null | undefined): T[] | null {
  return list && list.length > 0 ? list : null;
}

/**
 * Any answer object that may carry unknown fields: unchanged for "regular", with
 * `x_future_field` for "public-api". Why: every public schema is open (no
 * `additionalProperties: false`; the SDKs' models keep extra fields), so the server may add
 * fields at any time.
 */
export function extraFields(dialect: SimulatorDialect, obj: JsonObject): JsonObject {
  return pub(dialect) ? withFuture(obj) : obj;
}

// ---------------------------------------------------------------------------------------------
// Cloud lists

/** Page size actually served for a requested `limit` (capped under "public-api"). */
export function pageSize(dialect: SimulatorDialect, limit: number): number {
  return pub(dialect) ? Math.min(limit, PUBLIC_API_PAGE_CAP) : limit;
}

/**
 * The envelope of an offset-paged cloud list (`{count, results}`, count = total), with each
 * item shaped by `item` (given its position in the whole list, for "every other item" variants).
 */
export function listAnswer(
  dialect: SimulatorDialect,
  page: { count: number; results: readonly JsonObject[] },
  offset: number,
  item: (dialect: SimulatorDialect, obj: JsonObject, position: number) => JsonObject = extraFields,
): JsonObject {
  const results = page.results.map((r, i) => item(dialect, r, offset + i));
  return extraFields(dialect, { count: page.count, results });
}

// ---------------------------------------------------------------------------------------------
// Regions

/**
 * The regions page. "public-api" sends no `count`: the spec shows only `results`, so a client
 * must page until an empty page.
 */
export function regionPageAnswer(dialect: SimulatorDialect, page: { count: number; results: readonly Region[] }, offset: number): JsonObject {
  const answer = listAnswer(dialect, page, offset);
  return pub(dialect) ? omit(answer, ["count"]) : answer;
}

/**
 * Regions "public-api" adds to the list (when their ids are free): one `NEW` region without a
 * zone, volume types, file share types or coordinates (all nullable in the OpenAPI
 * `RegionSerializer`), and one `DELETION_FAILED` region in zone `RUSSIA_AND_CIS` with `vast`
 * file shares. Why: the `state` enum has seven values (ACTIVE, DELETED, DELETING,
 * DELETION_FAILED, INACTIVE, MAINTENANCE, NEW) and the spec shows only ACTIVE.
 */
export function extraRegions(dialect: SimulatorDialect, existing: readonly Region[]): Region[] {
  if (!pub(dialect)) return [];
  const base = {
    endpoint_type: "public",
    external_network_id: null,
    vlan_physical_network: "physnet1",
    task_id: null,
    metrics_database_id: null,
    access_level: "core",
    has_kvm: false,
    has_baremetal: false,
    has_basic_vm: false,
    has_sfs: false,
    has_dbaas: false,
    has_ddos: false,
    has_k8s: false,
    has_ai: false,
    has_ai_gpu: false,
  };
  const regions: Region[] = [
    {
      id: 9001,
      display_name: "Preview-1",
      keystone_name: "PV-1",
      keystone_id: 9001,
      slug: "preview-1",
      state: "NEW",
      country: "US",
      zone: null,
      created_at: "2026-06-01T00:00:00",
      created_on: "2026-06-01T00:00:00",
      available_volume_types: null,
      file_share_types: null,
      coordinates: null,
      ...base,
    },
    {
      id: 9002,
      display_name: "Retired-1",
      keystone_name: "RT-1",
      keystone_id: 9002,
      slug: "retired-1",
      state: "DELETION_FAILED",
      country: "KZ",
      zone: "RUSSIA_AND_CIS",
      created_at: "2019-03-01T00:00:00",
      created_on: "2019-03-01T00:00:00",
      available_volume_types: ["standard"],
      file_share_types: ["vast"],
      coordinates: { latitude: "43.2389", longitude: "76.8897" },
      ...base,
      has_kvm: true,
      ddos_endpoint_id: null,
    },
  ];
  return regions.filter((r) => !existing.some((e) => e.id === r.id));
}

// ---------------------------------------------------------------------------------------------
// Instances

/** Optional fields of an instance (nullable in the OpenAPI, `Optional = None` in the Python SDK). */
const OPTIONAL_INSTANCE_FIELDS = ["ssh_key_name", "instance_description", "creator_task_id", "fixed_ip_assignments", "instance_isolation", "ddos_profile"];

/** `created_at` as the older Go SDK reads `instance_created`: `2019-07-11T06:58:48Z` (RFC3339ZZ). */
function olderTimestamp(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * One instance of the instance list. Under "public-api", by position in the whole list:
 * odd positions use the older shape the older Go SDK (gcorelabscloud-go `instances.Instance`,
 * its `ListResponse` fixture) reads: `instance_id`, `instance_name`, `instance_created`
 * (`...Z`) instead of `id`, `name`, `created_at`, and no `tags` or `ssh_key_name` (that shape
 * has neither); positions 2, 6, 10... omit the optional fields; every item carries an unknown
 * field. `task_id`/`task_state` stay (lock signals).
 */
export function instanceAnswer(dialect: SimulatorDialect, instance: JsonObject, position: number): JsonObject {
  if (!pub(dialect)) return instance;
  if (position % 2 === 1) {
    const { id, name, created_at: createdAt, ...rest } = instance;
    return withFuture({
      instance_id: id,
      instance_name: name,
      instance_created: olderTimestamp(createdAt),
      ...omit(rest, ["tags", "ssh_key_name"]),
    });
  }
  return withFuture(position % 4 === 2 ? omit(instance, OPTIONAL_INSTANCE_FIELDS) : instance);
}

// ---------------------------------------------------------------------------------------------
// Tasks

/**
 * A task. "public-api": on a FINISHED task, every other `created_resources` key that created
 * nothing is `null` instead of `[]` (every key is `Optional[List] = None` in the Python SDK's
 * `CreatedResources`), keys that hold ids keep them; plus an unknown field. The OpenAPI's
 * optional fields (`detailed_state`, `acknowledged_at`, `user_client_id`, `job_id`, ...) are in
 * both dialects; `state` stays one of NEW/RUNNING/FINISHED/ERROR.
 */
export function taskAnswer(dialect: SimulatorDialect, task: JsonObject): JsonObject {
  if (!pub(dialect)) return task;
  const created = task.created_resources;
  if (task.state !== "FINISHED" || created === null || typeof created !== "object" || Array.isArray(created)) return withFuture(task);
  const shaped: JsonObject = {};
  Object.entries(created as JsonObject).forEach(([key, ids], i) => {
    shaped[key] = i % 2 === 1 && Array.isArray(ids) && ids.length === 0 ? null : ids;
  });
  return withFuture({ ...task, created_resources: shaped });
}

// ---------------------------------------------------------------------------------------------
// Kubernetes clusters

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
  if (!pub(dialect)) return cluster;
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
  if (!pub(dialect) || projectId !== 1 || regionId !== 76) return [];
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

// ---------------------------------------------------------------------------------------------
// Storage notification events

/**
 * One event as answered by create and in the list. "public-api": never `client_id` (the public
 * `EventResponse`, `LimitByBytes` and `LimitByCount` have none), empty `bucket_name` /
 * `storage_name` left out (a Go server's `omitempty`), `uuid` kept (the lifecycles find events
 * by it), plus an unknown field.
 */
export function eventAnswer(dialect: SimulatorDialect, event: JsonObject): JsonObject {
  if (!pub(dialect)) return event;
  const shaped = omit(event, ["client_id"]);
  for (const key of ["bucket_name", "storage_name"]) if (shaped[key] === "") delete shaped[key];
  return withFuture(shaped);
}

/**
 * The event list (an object keyed by the four kinds). "public-api": a kind without events is
 * `null` (a Go server's nil slice) instead of `[]`, items as `eventAnswer`, plus an unknown
 * field beside the kinds.
 */
export function eventListAnswer(dialect: SimulatorDialect, list: Record<string, JsonObject[]>): JsonObject {
  if (!pub(dialect)) return list;
  const out: JsonObject = {};
  for (const [kind, items] of Object.entries(list)) out[kind] = nilIfEmpty(items.map((e) => eventAnswer(dialect, e)));
  return withFuture(out);
}

/**
 * The answer of PUT / DELETE `/storage/notifications/v1/event`: 204 without a body ("regular",
 * as the OpenAPI declares), 200 with `{}` under "public-api" (the OpenAPI names the answer a
 * "SuccessResponse"; servers that write an empty object with 200 exist). Clients must treat
 * any 2xx as success and not require a body or its absence.
 */
export function eventWriteAnswer(dialect: SimulatorDialect): RouteResult {
  return pub(dialect) ? { status: 200, body: {} } : { status: 204 };
}

// ---------------------------------------------------------------------------------------------
// DNS delegation status

/**
 * The delegation status answer. "public-api", as the DNS API (a Go server) sends it: the counts
 * under their public names `gcore_authorized_count` / `non_gcore_authorized_count` (dns OpenAPI
 * `DelegationStatusScanResult`) instead of the spec's `service_*` names, an empty address list
 * (a name server without IPv6) and an empty server list as `null`, an unknown field, and the
 * JSON labelled `Content-Type: text/plain; charset=utf-8`.
 */
export function delegationAnswer(dialect: SimulatorDialect, status: JsonObject): RouteResult {
  if (!pub(dialect)) return { status: 200, body: status };
  const {
    authoritative_name_servers: servers,
    service_authorized_count: authorized,
    non_service_authorized_count: nonAuthorized,
    ...rest
  } = status;
  const list = Array.isArray(servers) ? (servers as JsonObject[]) : [];
  const body = withFuture({
    authoritative_name_servers: nilIfEmpty(
      list.map((ns) => ({
        ...ns,
        ipv4Addresses: nilIfEmpty(ns.ipv4Addresses as string[] | undefined),
        ipv6Addresses: nilIfEmpty(ns.ipv6Addresses as string[] | undefined),
      })),
    ),
    gcore_authorized_count: authorized,
    non_gcore_authorized_count: nonAuthorized,
    ...rest,
  });
  return { status: 200, body, contentType: "text/plain" };
}

// ---------------------------------------------------------------------------------------------
// Streaming AI tasks

/**
 * The AI task page. "public-api": records in the current Python SDK's `AITask` shape
 * (`task_id`, `status`, `progress`, `task_data`, `processing_time`; the task name only inside
 * `task_data.task_name`, the start time only under `processing_time.started_at`), an unknown
 * field on each record, and no `count` (the SDK's page model has only `results`); `next` /
 * `previous` as the OpenAPI has them (`page=N`, null at the ends).
 */
export function aiTaskPageAnswer(dialect: SimulatorDialect, page: { count: number; next: string | null; previous: string | null; results: JsonObject[] }): JsonObject {
  if (!pub(dialect)) return page;
  const results = page.results.map((r) => {
    const data = r.task_data !== null && typeof r.task_data === "object" ? (r.task_data as JsonObject) : {};
    return withFuture({
      task_id: r.task_id,
      status: r.status,
      progress: r.progress,
      task_data: { task_name: r.task_name, ...data },
      processing_time: r.processing_time,
    });
  });
  return { next: page.next, previous: page.previous, results };
}

// ---------------------------------------------------------------------------------------------
// IAM

/**
 * The current client. "public-api": `serviceStatuses` entries as the IAM OpenAPI allows them
 * (neither `status` nor `enabled` is required): `CDN` only `enabled`, `DNS` only `status`,
 * `DDOS` with `activating` (in the OpenAPI `ServiceStatus` enum, not in the Python SDK's),
 * an unknown field in `CLOUD` and at the top level. Other keys unchanged.
 */
export function clientAnswer(dialect: SimulatorDialect, client: JsonObject): JsonObject {
  if (!pub(dialect)) return client;
  const statuses = client.serviceStatuses;
  if (statuses === null || typeof statuses !== "object" || Array.isArray(statuses)) return withFuture(client);
  const shaped: JsonObject = {};
  for (const [service, entry] of Object.entries(statuses as JsonObject)) {
    const e = entry !== null && typeof entry === "object" ? (entry as JsonObject) : {};
    if (service === "CDN") shaped[service] = omit(e, ["status"]);
    else if (service === "DNS") shaped[service] = omit(e, ["enabled"]);
    else if (service === "DDOS") shaped[service] = { ...e, status: "activating" };
    else if (service === "CLOUD") shaped[service] = withFuture(e);
    else shaped[service] = entry;
  }
  return withFuture({ ...client, serviceStatuses: shaped });
}
