/** `getInstances`, paged here: the API caps a page at 1000 and users expect "all instances". */
import type { Instance } from "../api/cloud/instances";
import type { LookupDefinition } from "./runtime";
import { pageProgress } from "./progress";
import { ArgChecker } from "./validate";

/** Instance statuses the API filters by. */
export const INSTANCE_STATUSES = [
  "ACTIVE", "BUILD", "DELETED", "ERROR", "HARD_REBOOT", "MIGRATING", "PASSWORD", "PAUSED", "REBOOT", "REBUILD",
  "RESCUE", "RESIZE", "REVERT_RESIZE", "SHELVED", "SHELVED_OFFLOADED", "SHUTOFF", "SOFT_DELETED", "SUSPENDED",
  "UNKNOWN", "VERIFY_RESIZE",
] as const;

/** An instance status. */
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** Arguments of `getInstances`. */
export interface GetInstancesArgs {
  /** Project id (e.g. from `getProject`). */
  readonly projectId: number;
  /** Region id (e.g. from `getRegion`). */
  readonly regionId: number;
  /** Partial name match. */
  readonly name?: string;
  /** Only instances in this status. */
  readonly status?: InstanceStatus;
  /** Instances per request, 1..1000 (default 1000, the API's maximum). */
  readonly pageSize?: number;
  /** Stop after this many instances (default: all). */
  readonly maxResults?: number;
}

/** Result of `getInstances`. */
export interface GetInstancesResult {
  /** Project id. */
  readonly projectId: number;
  /** Region id. */
  readonly regionId: number;
  /** The instances, in the API's order. */
  readonly instances: readonly Instance[];
  /** Their ids, in the same order. */
  readonly ids: readonly string[];
}

interface Normalized {
  /** Project id. */
  readonly projectId: number;
  /** Region id. */
  readonly regionId: number;
  readonly name: string | undefined;
  readonly status: InstanceStatus | undefined;
  readonly pageSize: number;
  readonly maxResults: number | undefined;
}

/** `getInstances`. */
export const getInstancesLookup: LookupDefinition<GetInstancesArgs, Normalized, GetInstancesResult> = {
  name: "getInstances",
  normalize(raw) {
    const c = new ArgChecker("getInstances", raw, ["projectId", "regionId", "name", "status", "pageSize", "maxResults"]);
    return {
      projectId: c.int("projectId", 1),
      regionId: c.int("regionId", 1),
      name: c.optionalString("name"),
      status: c.optionalEnum("status", INSTANCE_STATUSES),
      pageSize: c.optionalInt("pageSize", 1, 1000) ?? 1000,
      maxResults: c.optionalInt("maxResults", 1),
    };
  },
  async execute({ client, progress }, a) {
    const instances = await client.cloud.instances.listAll(
      a.projectId,
      a.regionId,
      { name: a.name, status: a.status },
      {
        pageSize: a.pageSize,
        ...(a.maxResults !== undefined ? { max: a.maxResults } : {}),
        onPage: pageProgress("getInstances", "instances", progress),
      },
    );
    return { projectId: a.projectId, regionId: a.regionId, instances, ids: instances.map((i) => i.id) };
  },
};
