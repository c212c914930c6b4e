/** Region lookups; only ACTIVE regions are to be used (spec), and a skipped match is named in the error. */
import type { Region } from "../api/cloud/regions";
import { LookupMatchError } from "./errors";
import type { LookupDefinition } from "./runtime";
import { ArgChecker } from "./validate";

/** Region access levels. */
export const ACCESS_LEVELS = ["core", "edge"] as const;
/** A region access level: `core` (latest hardware) or `edge` (lower cost). */
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Capability filters shared by both region lookups; each filter applies only when given. */
export interface RegionFilters {
  /** Managed Kubernetes available. */
  readonly hasK8s?: boolean;
  /** Virtual machines available. */
  readonly hasKvm?: boolean;
  /** Managed PostgreSQL available. */
  readonly hasDbaas?: boolean;
  /** Bare metal available. */
  readonly hasBaremetal?: boolean;
  /** `core` or `edge`. */
  readonly accessLevel?: AccessLevel;
}

/** Arguments of `getRegions`. */
export interface GetRegionsArgs extends RegionFilters {
  /** Also return regions that are not ACTIVE (MAINTENANCE, INACTIVE, ...). Default false. */
  readonly includeInactive?: boolean;
}

/** Result of `getRegions`. */
export interface GetRegionsResult {
  /** The matching regions, in the API's order. */
  readonly regions: readonly Region[];
  /** Their ids, in the same order. */
  readonly ids: readonly number[];
}

/** Arguments of `getRegion`: a display name and/or id, plus capability filters. */
export interface GetRegionArgs extends RegionFilters {
  /** Display name (`Luxembourg-2`) or slug (`luxembourg-2`), case-insensitive. */
  readonly name?: string;
  /** Region id. */
  readonly id?: number;
}

/** Result of `getRegion`: the chosen region. */
export interface GetRegionResult extends Region {}

/** Normalized region criteria. */
export interface RegionChoice {
  readonly name?: string | undefined;
  readonly id?: number | undefined;
  readonly hasK8s?: boolean | undefined;
  readonly hasKvm?: boolean | undefined;
  readonly hasDbaas?: boolean | undefined;
  readonly hasBaremetal?: boolean | undefined;
  readonly accessLevel?: AccessLevel | undefined;
}

const FILTER_ARGS = ["hasK8s", "hasKvm", "hasDbaas", "hasBaremetal", "accessLevel"] as const;

function readFilters(c: ArgChecker): Omit<RegionChoice, "name" | "id"> {
  return {
    hasK8s: c.optionalBool("hasK8s"),
    hasKvm: c.optionalBool("hasKvm"),
    hasDbaas: c.optionalBool("hasDbaas"),
    hasBaremetal: c.optionalBool("hasBaremetal"),
    accessLevel: c.optionalEnum("accessLevel", ACCESS_LEVELS),
  };
}

/** Whether a region fits the criteria (state not considered). */
export function regionMatches(r: Region, c: RegionChoice): boolean {
  if (c.id !== undefined && r.id !== c.id) return false;
  if (c.name !== undefined) {
    const n = c.name.toLowerCase();
    if (r.displayName.toLowerCase() !== n && (r.slug ?? "").toLowerCase() !== n) return false;
  }
  if (c.hasK8s !== undefined && r.hasK8s !== c.hasK8s) return false;
  if (c.hasKvm !== undefined && r.hasKvm !== c.hasKvm) return false;
  if (c.hasDbaas !== undefined && r.hasDbaas !== c.hasDbaas) return false;
  if (c.hasBaremetal !== undefined && r.hasBaremetal !== c.hasBaremetal) return false;
  if (c.accessLevel !== undefined && r.accessLevel !== c.accessLevel) return false;
  return true;
}

/** Filter regions; only ACTIVE ones unless `includeInactive`. */
export function filterRegions(regions: readonly Region[], c: RegionChoice, includeInactive = false): Region[] {
  return regions.filter((r) => regionMatches(r, c) && (includeInactive || r.state === "ACTIVE"));
}

function label(r: Region): string {
  return `${r.displayName} (id ${r.id}${r.state === "ACTIVE" ? "" : `, ${r.state}`})`;
}

/** The criteria as text, e.g. `name "Frankfurt", hasK8s true`. */
export function describeChoice(c: RegionChoice): string {
  const parts: string[] = [];
  if (c.name !== undefined) parts.push(`name ${JSON.stringify(c.name)}`);
  if (c.id !== undefined) parts.push(`id ${c.id}`);
  for (const k of FILTER_ARGS) if (c[k] !== undefined) parts.push(`${k} ${typeof c[k] === "string" ? JSON.stringify(c[k]) : String(c[k])}`);
  return parts.length ? parts.join(", ") : "no criteria";
}

/** Exactly one ACTIVE region, else a LookupMatchError naming the candidates and the skipped ones. */
export function chooseRegion(regions: readonly Region[], c: RegionChoice, lookup = "getRegion"): Region {
  const matching = regions.filter((r) => regionMatches(r, c));
  const active = matching.filter((r) => r.state === "ACTIVE");
  if (active.length === 1) return active[0] as Region;
  const what = describeChoice(c);
  if (active.length === 0) {
    const skipped = matching.length ? `; matching but not ACTIVE: ${matching.map(label).join(", ")}` : "";
    const candidates = regions.filter((r) => r.state === "ACTIVE").map(label).join(", ") || "none";
    throw new LookupMatchError(lookup, 0, `no ACTIVE region matches ${what}${skipped}. ACTIVE regions: ${candidates}`);
  }
  throw new LookupMatchError(
    lookup,
    active.length,
    `${active.length} ACTIVE regions match ${what}: ${active.map(label).join(", ")}; narrow the choice with name, id or another filter`,
  );
}

/** Internal: the full region list of one run, shared by both region lookups. */
const listRegions: LookupDefinition<undefined, Record<string, never>, Region[]> = {
  name: "listRegions",
  internal: true,
  normalize: () => ({}),
  execute: ({ client }) => client.cloud.regions.listAll({}, { pageSize: 100 }),
};

/** `getRegions`. */
export const getRegionsLookup: LookupDefinition<GetRegionsArgs, RegionChoice & { includeInactive: boolean }, GetRegionsResult> = {
  name: "getRegions",
  normalize(raw) {
    const c = new ArgChecker("getRegions", raw, ["includeInactive", ...FILTER_ARGS]);
    return { ...readFilters(c), includeInactive: c.optionalBool("includeInactive") ?? false };
  },
  async execute(call, a) {
    const regions = filterRegions(await call.sub(listRegions, undefined), a, a.includeInactive);
    return { regions, ids: regions.map((r) => r.id) };
  },
};

/** `getRegion`. */
export const getRegionLookup: LookupDefinition<GetRegionArgs, RegionChoice, GetRegionResult> = {
  name: "getRegion",
  normalize(raw) {
    const c = new ArgChecker("getRegion", raw, ["name", "id", ...FILTER_ARGS]);
    return { name: c.optionalString("name"), id: c.optionalInt("id", 1), ...readFilters(c) };
  },
  async execute(call, choice) {
    return chooseRegion(await call.sub(listRegions, undefined), choice);
  },
};
