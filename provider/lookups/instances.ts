/** `getInstances`, paged here: the API caps a page at 1000 and users expect "all instances". */
import type { Instance } from "../api/cloud/instances";
import type { LookupDefinition } from "./runtime";
import { pageProgress } from "./progress";
import { INSTANCE_STATUS_QUERY } from "./queryEnums";
import { ArgChecker } from "./validate";

/**
 * Instance statuses the API filters by: the query parameter's enum (`InstanceStatusQuery`,
 * `queryEnums.ts`), not every status an instance may report (those are read as they come).
 */
export const INSTANCE_STATUSES = INSTANCE_STATUS_QUERY;

/** An instance status the `status` filter takes. */
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

/** Arguments of `getInstances`. */
export interface GetInstancesArgs {
  /** Project id (e.g. from `getProject`). */
  readonly projectId: number;
  /** Region id (e.g. from `getRegion`). */
  readonly regionId: number;
  /** Partial name match. */
  readonly name?: string;
  /**
   * Only instances in this status: one of the 16 the API's filter takes (not DELETED, PASSWORD,
   * RESCUE or UNKNOWN, which an instance may report but the filter refuses).
   */
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
  readonly projectId: number;
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
