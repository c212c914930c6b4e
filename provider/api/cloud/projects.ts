/** Cloud projects, whose ids `getProjects`/`getProject` resolve from names. */
import type { OffsetPage, OffsetPagerOptions } from "../pagination";
import { offsetEndpoint } from "../pagedEndpoint";
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { int, offsetPage, optionalInt, optionalText, text, type Answer } from "../schema";

/** Filters of the project list. */
export interface ListProjectsParams {
  readonly includeDeleted?: boolean;
  /** Filter by name. */
  readonly name?: string;
  readonly orderBy?: "created_at.asc" | "created_at.desc" | "name.asc" | "name.desc";
  readonly limit?: number;
  readonly offset?: number;
}

/** `id`, `name` and `is_default` are required (spec, OpenAPI; `getProject` chooses by them). */
export const projectSchema = z
  .object({
    id: int,
    name: text,
    is_default: z.boolean(),
    state: optionalText,
    client_id: optionalInt,
    description: optionalText,
    created_at: optionalText,
    deleted_at: optionalText,
    task_id: optionalText,
  })
  .transform((w) => ({
    /** Project id. */
    id: w.id,
    /** Project name. */
    name: w.name,
    /** Each client has exactly one default project. */
    isDefault: w.is_default,
    /** ACTIVE, DELETED, DELETING, ... as sent; null when not sent. */
    state: w.state,
    /** Id of the client (account) owning the project, when reported. */
    clientId: w.client_id,
    /** Free-text description, when set. */
    description: w.description,
    /** Creation time, ISO 8601, as sent. */
    createdAt: w.created_at,
    /** Deletion time, ISO 8601, for deleted projects. */
    deletedAt: w.deleted_at,
    /** Id of the task holding a lock on the project, if any. */
    taskId: w.task_id,
  }));

/** A cloud project. */
export interface Project extends Answer<typeof projectSchema> {}

/** A page of projects (`count` is the total). */
export const projectPageSchema = offsetPage(projectSchema);

/** The project functions of the client. */
export interface ProjectsApi {
  list(params?: ListProjectsParams, options?: RequestOptions): Promise<OffsetPage<Project>>;
  listAll(params?: Omit<ListProjectsParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<Project[]>;
}

/** Bind the project functions to a transport. */
export function projectsApi(t: Transport): ProjectsApi {
  return offsetEndpoint<[], ListProjectsParams, Project>(t, {
    path: () => "/cloud/v1/projects",
    query: { includeDeleted: "include_deleted", name: "name", orderBy: "order_by", limit: "limit", offset: "offset" },
    page: projectPageSchema,
    idOf: (p) => p.id,
  });
}
