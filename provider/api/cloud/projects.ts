/**
 * Cloud projects: `GET /cloud/v1/projects`.
 *
 * Why: lookups `getProjects`/`getProject` resolve project names to the ids other calls need.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { bodyList, bool, numOr, str, strOrNull, type WireObject } from "../wire";

/** A cloud project. */
export interface Project {
  /** Project id. */
  readonly id: number;
  /** Project name. */
  readonly name: string;
  /** Each client has exactly one default project. */
  readonly isDefault: boolean;
  /** ACTIVE, DELETED, DELETING, ... as sent. */
  readonly state: string;
  /** Id of the client (account) owning the project, when reported. */
  readonly clientId: number | null;
  /** Free-text description, when set. */
  readonly description: string | null;
  /** Creation time, ISO 8601, as sent. */
  readonly createdAt: string | null;
  /** Deletion time, ISO 8601, for deleted projects. */
  readonly deletedAt: string | null;
  /** Id of the task holding a lock on the project, if any. */
  readonly taskId: string | null;
}

/** Filters of the project list. */
export interface ListProjectsParams {
  readonly includeDeleted?: boolean;
  /** Filter by name. */
  readonly name?: string;
  readonly orderBy?: "created_at.asc" | "created_at.desc" | "name.asc" | "name.desc";
  readonly limit?: number;
  readonly offset?: number;
}

/** Map one wire project. */
export function projectFromWire(w: WireObject): Project {
  return {
    id: numOr(w["id"], 0),
    name: str(w["name"]),
    isDefault: bool(w["is_default"]),
    state: str(w["state"]),
    clientId: w["client_id"] === undefined || w["client_id"] === null ? null : numOr(w["client_id"], 0),
    description: strOrNull(w["description"]),
    createdAt: strOrNull(w["created_at"]),
    deletedAt: strOrNull(w["deleted_at"]),
    taskId: strOrNull(w["task_id"]),
  };
}

/** The project functions of the client. */
export interface ProjectsApi {
  /** One page of projects. */
  list(params?: ListProjectsParams, options?: RequestOptions): Promise<OffsetPage<Project>>;
  /** Every project matching the filters. */
  listAll(params?: Omit<ListProjectsParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<Project[]>;
}

/** Bind the project functions to a transport. */
export function projectsApi(t: Transport): ProjectsApi {
  const list = async (params: ListProjectsParams = {}, options?: RequestOptions): Promise<OffsetPage<Project>> => {
    const res = await t.request({
      method: "GET",
      path: "/cloud/v1/projects",
      query: {
        include_deleted: params.includeDeleted,
        name: params.name,
        order_by: params.orderBy,
        limit: params.limit,
        offset: params.offset,
      },
      options,
    });
    const page = bodyList(res);
    return { count: page.count, results: page.results.map(projectFromWire) };
  };
  return { list, listAll: (params = {}, pager = {}, options) => fetchAllOffset((p) => list({ ...params, ...p }, options), pager) };
}
