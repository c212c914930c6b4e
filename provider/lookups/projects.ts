/**
 * Project lookups over one shared list per run: one request answers them all, and choosing
 * locally lets an error name every candidate.
 */
import type { Project } from "../api/cloud/projects";
import { LookupMatchError } from "./errors";
import type { LookupDefinition } from "./runtime";
import { ArgChecker } from "./validate";

/** Arguments of `getProjects`. */
export interface GetProjectsArgs {
  /** Also list projects in state DELETED (hidden by the API by default). Default false. */
  readonly includeDeleted?: boolean;
}

/** Result of `getProjects`. */
export interface GetProjectsResult {
  /** Every project visible to the key, in the API's order. */
  readonly projects: readonly Project[];
  /** The project ids, in the same order (handy for `for` loops in programs). */
  readonly ids: readonly number[];
}

/** Arguments of `getProject`. Without `name` and `id` the default project is chosen. */
export interface GetProjectArgs {
  /** Exact project name. */
  readonly name?: string;
  /** Project id (when given with `name`, both must match). */
  readonly id?: number;
}

/** Result of `getProject`: the chosen project. */
export interface GetProjectResult extends Project {}

interface ListProjectsArgs {
  readonly includeDeleted: boolean;
}

/** Internal: the project list of one run, shared by getProjects and getProject. */
const listProjects: LookupDefinition<ListProjectsArgs, ListProjectsArgs, Project[]> = {
  name: "listProjects",
  internal: true,
  normalize: (a) => ({ includeDeleted: a?.includeDeleted ?? false }),
  execute: ({ client }, a) => client.cloud.projects.listAll({ includeDeleted: a.includeDeleted }, { pageSize: 100 }),
};

/** `getProjects`. */
export const getProjectsLookup: LookupDefinition<GetProjectsArgs, ListProjectsArgs, GetProjectsResult> = {
  name: "getProjects",
  normalize(raw) {
    const c = new ArgChecker("getProjects", raw, ["includeDeleted"]);
    return { includeDeleted: c.optionalBool("includeDeleted") ?? false };
  },
  async execute(call, a) {
    const projects = await call.sub(listProjects, a);
    return { projects, ids: projects.map((p) => p.id) };
  },
};

/** Normalized arguments of `getProject`. */
export interface ProjectChoice {
  readonly name?: string | undefined;
  readonly id?: number | undefined;
}

function label(p: Project): string {
  return `${JSON.stringify(p.name)} (id ${p.id})`;
}

/** By `id` and/or exact `name`, else the default project; LookupMatchError names the candidates. */
export function chooseProject(projects: readonly Project[], choice: ProjectChoice, lookup = "getProject"): Project {
  const all = projects.map(label).join(", ") || "none";
  if (choice.name === undefined && choice.id === undefined) {
    const defaults = projects.filter((p) => p.isDefault);
    if (defaults.length === 1) return defaults[0] as Project;
    if (defaults.length === 0) throw new LookupMatchError(lookup, 0, `no default project found; pass name or id. Projects: ${all}`);
    throw new LookupMatchError(lookup, defaults.length, `${defaults.length} projects are marked default: ${defaults.map(label).join(", ")}; pass name or id`);
  }
  const wanted = [choice.name !== undefined ? `name ${JSON.stringify(choice.name)}` : "", choice.id !== undefined ? `id ${choice.id}` : ""]
    .filter(Boolean)
    .join(" and ");
  const matches = projects.filter((p) => (choice.name === undefined || p.name === choice.name) && (choice.id === undefined || p.id === choice.id));
  if (matches.length === 1) return matches[0] as Project;
  if (matches.length === 0) {
    const near = choice.name === undefined ? [] : projects.filter((p) => p.name !== choice.name && p.name.toLowerCase() === choice.name?.toLowerCase());
    const hint = near.length ? ` (names differ only in case: ${near.map(label).join(", ")})` : "";
    throw new LookupMatchError(lookup, 0, `no project with ${wanted}${hint}. Candidates: ${all}`);
  }
  throw new LookupMatchError(lookup, matches.length, `${matches.length} projects match ${wanted}: ${matches.map(label).join(", ")}; pass id to pick one`);
}

/** `getProject`. */
export const getProjectLookup: LookupDefinition<GetProjectArgs, ProjectChoice, GetProjectResult> = {
  name: "getProject",
  normalize(raw) {
    const c = new ArgChecker("getProject", raw, ["name", "id"]);
    return { name: c.optionalString("name"), id: c.optionalInt("id", 1) };
  },
  async execute(call, choice) {
    const projects = await call.sub(listProjects, { includeDeleted: false });
    return chooseProject(projects, choice);
  },
};
