/**
 * Generates the per-field cases of generated.test.ts from a table of schemas and full fixtures.
 *
 * For one table row (a schema, a full valid body, its decision fields and enum paths):
 * - every optional field found in the body (object keys at any depth, inside list items and
 *   nested objects, map entries included): deleting it must still parse, and so must setting it
 *   to null (skipped where the body already has null, and for entries of `noNullEntries` maps);
 * - every object in the body gains an unknown field and must still parse (in a map whose keys
 *   are data, the new key gets a copy of a sibling's value: a new network, a new service);
 * - every enum path given a value the API does not document must still parse;
 * - every required path deleted, and set to null, must fail, with the mismatch naming the field
 *   at its position (a field required in the items of an optional list is listed as such,
 *   e.g. `results[].tags[].key`; the list itself stays optional);
 * - `atLeastOneOf`: deleting all of those keys at once, an unknown field left in their place, must
 *   fail (a body of something else). Whether `{}` is an answer is the schema's own rule (the
 *   event list reads it as "no events, marked"; the delegation status refuses it): spot-checked
 *   in fixtures.test.ts.
 *
 * Paths in the table are patterns: `results[].id` (`[]` = any list position), `addresses.*`
 * (`*` = any key of a map).
 */
import type { z } from "zod";
import { fixtureBody } from "./fixtureFiles";

export type Segment = string | number;
export type Path = readonly Segment[];

/** A required path: its pattern, and the names a mismatch may give it (older aliases). */
export interface RequiredField {
  readonly path: string;
  /** Names `mismatch.field` may contain; default: the last key of `path`. */
  readonly names?: readonly string[];
}

/** One row of the table. */
export interface SchemaRow {
  /** Exported name of the schema, for titles. */
  readonly schemaName: string;
  readonly schema: z.ZodType;
  /** Fixture file (a full, valid body). */
  readonly fixture: string;
  /** Decision fields: absent or null must be refused (list every one; nothing is implied). */
  readonly required: readonly (string | RequiredField)[];
  /** Enum fields: a value the API does not document must be read. */
  readonly enums?: readonly { readonly path: string; readonly unknownValue: unknown }[];
  /** Objects whose keys are data (resource types, network names, services). */
  readonly maps?: readonly string[];
  /**
   * Maps whose entries the rules type as objects (not nullable): their entries are deleted but
   * not set to null (e.g. `serviceStatuses.CLOUD`).
   */
  readonly noNullEntries?: readonly string[];
  /** Keys of which at least one must be there: deleting them all must be refused. */
  readonly atLeastOneOf?: readonly string[];
}

export type CaseKind = "optional-delete" | "optional-null" | "unknown-field" | "unknown-enum" | "required-delete" | "required-null" | "at-least-one";

/** One generated case. */
export interface GeneratedCase {
  readonly title: string;
  readonly row: string;
  readonly kind: CaseKind;
  readonly schema: z.ZodType;
  readonly body: unknown;
  /** `parse`, or a refusal whose mismatch field contains one of `names` (and `at`, the position above the field). */
  readonly expect: { readonly parse: true } | { readonly parse: false; readonly names: readonly string[]; readonly at: string };
}

export const UNKNOWN_KEY = "x_conformance_unknown";
export const UNKNOWN_VALUE = { added_by: "conformance test", n: 1, list: ["a"] } as const;

/** `results[0].flavor.ram`, `(body)` for the root. */
export function formatPath(path: Path): string {
  if (path.length === 0) return "(body)";
  return path.reduce<string>((out, s) => (typeof s === "number" ? `${out}[${s}]` : out ? `${out}.${s}` : s), "");
}

/** `results[].addresses.*[].type` -> `["results", "[]", "addresses", "*", "[]", "type"]`. */
export function parsePattern(pattern: string): readonly string[] {
  const out: string[] = [];
  for (const part of pattern.split(".")) {
    const m = /^([^[]*)((?:\[\])*)$/.exec(part);
    if (!m) throw new Error(`bad pattern ${pattern}`);
    if (m[1]) out.push(m[1]);
    for (let i = 0; i < (m[2] ?? "").length / 2; i++) out.push("[]");
  }
  return out;
}

/** Whether a concrete path matches a pattern (same length, `[]` any index, `*` any key). */
export function matches(pattern: readonly string[], path: Path): boolean {
  if (pattern.length !== path.length) return false;
  return pattern.every((p, i) => {
    const s = path[i];
    if (p === "[]") return typeof s === "number";
    if (p === "*") return typeof s === "string";
    return s === p;
  });
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Every path to a value in the body (object keys and list positions), depth first, root excluded. */
export function valuePaths(body: unknown, at: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(body)) {
    body.forEach((v, i) => {
      out.push([...at, i], ...valuePaths(v, [...at, i]));
    });
  } else if (isObject(body)) {
    for (const [k, v] of Object.entries(body)) out.push([...at, k], ...valuePaths(v, [...at, k]));
  }
  return out;
}

/** Paths that end in an object key (the "fields"). */
export function fieldPaths(body: unknown): Path[] {
  return valuePaths(body).filter((p) => typeof p[p.length - 1] === "string");
}

/** Paths of every object node, the root included. */
export function objectPaths(body: unknown): Path[] {
  const all: Path[] = [[], ...valuePaths(body)];
  return all.filter((p) => isObject(get(body, p)));
}

export function get(body: unknown, path: Path): unknown {
  let v: unknown = body;
  for (const s of path) {
    if (Array.isArray(v) && typeof s === "number") v = v[s];
    else if (isObject(v) && typeof s === "string") v = v[s];
    else return undefined;
  }
  return v;
}

function parentOf(body: unknown, path: Path): { parent: Record<string, unknown> | unknown[]; key: Segment } {
  const parent = get(body, path.slice(0, -1));
  const key = path[path.length - 1];
  if (key === undefined || !(Array.isArray(parent) || isObject(parent))) throw new Error(`no parent for ${formatPath(path)}`);
  return { parent, key };
}

/** A copy of `body` without the field at `path`. */
export function without(body: unknown, path: Path): unknown {
  const copy = structuredClone(body);
  const { parent, key } = parentOf(copy, path);
  if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key as string];
  return copy;
}

/** A copy of `body` with `value` at `path`. */
export function withValue(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body);
  if (path.length === 0) return value;
  const { parent, key } = parentOf(copy, path);
  if (Array.isArray(parent)) parent[key as number] = value;
  else parent[key as string] = value;
  return copy;
}

/**
 * The row's required patterns. Only what the row lists: a field required inside an optional
 * list's items (`results[].tags[].key`) does not make the list itself required, so a page's
 * `results` is listed on its own.
 */
function requiredPatterns(row: SchemaRow): { pattern: readonly string[]; names: readonly string[] }[] {
  return row.required.map((r) => {
    const field = typeof r === "string" ? { path: r } : r;
    const pattern = parsePattern(field.path);
    const last = pattern[pattern.length - 1];
    if (last === undefined || last === "[]" || last === "*") throw new Error(`required path ${field.path} must end in a field name`);
    return { pattern, names: field.names ?? [last] };
  });
}

/** The generated cases of one row. Throws on a table bug (a pattern that matches nothing). */
export function generateCases(row: SchemaRow): GeneratedCase[] {
  const body = fixtureBody(row.fixture);
  const label = `${row.schemaName} <- ${row.fixture}`;
  const cases: GeneratedCase[] = [];
  const required = requiredPatterns(row);
  const maps = (row.maps ?? []).map(parsePattern);
  const noNull = (row.noNullEntries ?? []).map(parsePattern);
  const fields = fieldPaths(body);
  const add = (kind: CaseKind, what: string, b: unknown, expect: GeneratedCase["expect"]) =>
    cases.push({ title: `${label}: ${what}`, row: label, kind, schema: row.schema, body: b, expect });

  for (const r of row.required) {
    const pattern = parsePattern(typeof r === "string" ? r : r.path);
    if (!fields.some((p) => matches(pattern, p))) throw new Error(`${label}: required path ${typeof r === "string" ? r : r.path} is not in the fixture`);
  }
  for (const p of fields) {
    const req = required.find((r) => matches(r.pattern, p));
    const name = formatPath(p);
    if (req) {
      const at = p.length > 1 ? formatPath(p.slice(0, -1)) : "";
      add("required-delete", `without required ${name} is refused`, without(body, p), { parse: false, names: req.names, at });
      add("required-null", `required ${name} = null is refused`, withValue(body, p, null), { parse: false, names: req.names, at });
    } else {
      add("optional-delete", `without ${name} still reads`, without(body, p), { parse: true });
      const entryOfNoNullMap = noNull.some((m) => matches(m, p.slice(0, -1)));
      if (get(body, p) !== null && !entryOfNoNullMap) add("optional-null", `${name} = null still reads`, withValue(body, p, null), { parse: true });
    }
  }
  for (const p of objectPaths(body)) {
    const node = get(body, p) as Record<string, unknown>;
    const isMap = maps.some((m) => matches(m, p));
    if (isMap) {
      const sibling = Object.values(node)[0];
      if (sibling === undefined) continue;
      add("unknown-field", `a new key in map ${formatPath(p)} still reads`, withValue(body, [...p, "x-conformance-new"], structuredClone(sibling)), { parse: true });
    } else {
      add("unknown-field", `an unknown field in ${formatPath(p)} still reads`, withValue(body, [...p, UNKNOWN_KEY], structuredClone(UNKNOWN_VALUE)), { parse: true });
    }
  }
  for (const e of row.enums ?? []) {
    const pattern = parsePattern(e.path);
    const hits = valuePaths(body).filter((p) => matches(pattern, p));
    if (hits.length === 0) throw new Error(`${label}: enum path ${e.path} is not in the fixture`);
    for (const p of hits) add("unknown-enum", `${formatPath(p)} = ${JSON.stringify(e.unknownValue)} (undocumented value) still reads`, withValue(body, p, e.unknownValue), { parse: true });
  }
  if (row.atLeastOneOf) {
    let b = body;
    for (const k of row.atLeastOneOf) {
      if (!isObject(b) || !(k in b)) throw new Error(`${label}: ${k} is not in the fixture`);
      b = without(b, [k]);
    }
    b = withValue(b, [UNKNOWN_KEY], structuredClone(UNKNOWN_VALUE));
    add("at-least-one", `without all of ${row.atLeastOneOf.join(", ")} (only an unknown field) is refused`, b, { parse: false, names: [], at: "" });
  }
  return cases;
}
