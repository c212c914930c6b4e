/**
 * The cloud API's answers in each dialect (CONTRACT.md "Dialects" rows 1, 2, 7, 8): offset-paged
 * lists and their page cap, regions, instances and tasks.
 */
import { omit, unchanged, withFuture, type ByDialect } from "../dialect";
import type { JsonObject, Region } from "../state";

/** Shapes one list item, given its position in the whole list (for "every other item" variants). */
export type ItemShaper = (item: JsonObject, position: number) => JsonObject;

/** One page of an offset-paged list, `count` the total. */
export interface Page<T extends JsonObject = JsonObject> {
  count: number;
  results: readonly T[];
}

/** How a dialect shapes the cloud API's answers. */
export interface CloudAnswers {
  /** The page size served for a requested `limit`. */
  pageSize(limit: number): number;
  /** An offset-paged list `{count, results}`, each item shaped by `item` (default: any object). */
  list(page: Page, offset: number, item?: ItemShaper): JsonObject;
  /** The regions page. */
  regionPage(page: Page<Region>, offset: number): JsonObject;
  /** Regions the dialect adds to the state's. */
  extraRegions(existing: readonly Region[]): Region[];
  /** One instance of the instance list. */
  instance: ItemShaper;
  /** A task (GET and list item). */
  task(task: JsonObject): JsonObject;
}

/**
 * Most items an offset-paged cloud list (projects, regions, instances, tasks, clusters) returns
 * under "public-api", whatever `limit` asks: a client must follow `count`, not trust `limit`.
 */
export const PUBLIC_API_PAGE_CAP = 10;

function envelope(page: Page, offset: number, item: ItemShaper): JsonObject {
  return { count: page.count, results: page.results.map((r, i) => item(r, offset + i)) };
}

function publicList(page: Page, offset: number, item: ItemShaper = withFuture): JsonObject {
  return withFuture(envelope(page, offset, item));
}

/**
 * Regions "public-api" adds (when their ids are free): a `NEW` one with every nullable field
 * null and a `DELETION_FAILED` one, because the `state` enum has seven values and the spec shows
 * only ACTIVE.
 */
function publicExtraRegions(existing: readonly Region[]): Region[] {
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

/** Odd positions in the older Go SDK's shape, positions 2, 6, 10... without the optional fields. */
function publicInstance(instance: JsonObject, position: number): JsonObject {
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

/** On a FINISHED task, every other `created_resources` key that created nothing is `null`. */
function publicTask(task: JsonObject): JsonObject {
  const created = task.created_resources;
  if (task.state !== "FINISHED" || created === null || typeof created !== "object" || Array.isArray(created)) return withFuture(task);
  const shaped: JsonObject = {};
  Object.entries(created as JsonObject).forEach(([key, ids], i) => {
    shaped[key] = i % 2 === 1 && Array.isArray(ids) && ids.length === 0 ? null : ids;
  });
  return withFuture({ ...task, created_resources: shaped });
}

/** The cloud answers of each dialect. */
export const cloudAnswers: ByDialect<CloudAnswers> = {
  regular: {
    pageSize: unchanged,
    list: (page, offset, item = unchanged) => envelope(page, offset, item),
    regionPage: (page, offset) => envelope(page, offset, unchanged),
    extraRegions: () => [],
    instance: unchanged,
    task: unchanged,
  },
  "public-api": {
    pageSize: (limit) => Math.min(limit, PUBLIC_API_PAGE_CAP),
    list: publicList,
    // No `count`: the spec shows only `results`, so a client must page until an empty page.
    regionPage: (page, offset) => omit(publicList(page, offset), ["count"]),
    extraRegions: publicExtraRegions,
    instance: publicInstance,
    task: publicTask,
  },
};
