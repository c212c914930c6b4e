/**
 * The cloud API's answers in each dialect (CONTRACT.md "Dialects"): offset-paged lists and
 * their page cap, regions, instances and tasks.
 *
 * Each function takes the answer the regular dialect builds and returns the answer to send:
 * unchanged for "regular", shaped as the public material allows for "public-api" (`dialect.ts`).
 */
import { extraFields, isPublicApi, omit, withFuture, type SimulatorDialect } from "../dialect";
import type { JsonObject, Region } from "../state";

/**
 * Most items an offset-paged cloud list (projects, regions, instances, tasks, clusters) returns
 * under "public-api", whatever `limit` asks. Why: servers cap pages below the requested size;
 * a client must follow `count` (or page until an empty page), not trust `limit`.
 */
export const PUBLIC_API_PAGE_CAP = 10;

/** Page size actually served for a requested `limit` (capped under "public-api"). */
export function pageSize(dialect: SimulatorDialect, limit: number): number {
  return isPublicApi(dialect) ? Math.min(limit, PUBLIC_API_PAGE_CAP) : limit;
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

/**
 * The regions page. "public-api" sends no `count`: the spec shows only `results`, so a client
 * must page until an empty page.
 */
export function regionPageAnswer(dialect: SimulatorDialect, page: { count: number; results: readonly Region[] }, offset: number): JsonObject {
  const answer = listAnswer(dialect, page, offset);
  return isPublicApi(dialect) ? omit(answer, ["count"]) : answer;
}

/**
 * Regions "public-api" adds to the list (when their ids are free): one `NEW` region without a
 * zone, volume types, file share types or coordinates (all nullable in the OpenAPI
 * `RegionSerializer`), and one `DELETION_FAILED` region in zone `RUSSIA_AND_CIS` with `vast`
 * file shares. Why: the `state` enum has seven values (ACTIVE, DELETED, DELETING,
 * DELETION_FAILED, INACTIVE, MAINTENANCE, NEW) and the spec shows only ACTIVE.
 */
export function extraRegions(dialect: SimulatorDialect, existing: readonly Region[]): Region[] {
  if (!isPublicApi(dialect)) return [];
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
  if (!isPublicApi(dialect)) return instance;
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

/**
 * A task. "public-api": on a FINISHED task, every other `created_resources` key that created
 * nothing is `null` instead of `[]` (every key is `Optional[List] = None` in the Python SDK's
 * `CreatedResources`), keys that hold ids keep them; plus an unknown field. The OpenAPI's
 * optional fields (`detailed_state`, `acknowledged_at`, `user_client_id`, `job_id`, ...) are in
 * both dialects; `state` stays one of NEW/RUNNING/FINISHED/ERROR.
 */
export function taskAnswer(dialect: SimulatorDialect, task: JsonObject): JsonObject {
  if (!isPublicApi(dialect)) return task;
  const created = task.created_resources;
  if (task.state !== "FINISHED" || created === null || typeof created !== "object" || Array.isArray(created)) return withFuture(task);
  const shaped: JsonObject = {};
  Object.entries(created as JsonObject).forEach(([key, ids], i) => {
    shaped[key] = i % 2 === 1 && Array.isArray(ids) && ids.length === 0 ? null : ids;
  });
  return withFuture({ ...task, created_resources: shaped });
}
