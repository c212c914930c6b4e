/**
 * A value against the schema facts of `openapi-operations.json`: types, `nullable`, enums, bounds,
 * formats, required and unknown properties. Returns every problem (each naming its place), not
 * only the first, so one run of the conformance test shows all of them.
 *
 * Why our own and not a JSON Schema library: the facts are a small subset of JSON Schema, and
 * query and path values arrive as text, which {@link fromWire} turns into the typed value the
 * schema describes before the same checks run.
 */
import type { SchemaFacts } from "./facts";

const FORMATS: Readonly<Record<string, (v: unknown) => boolean>> = {
  date: (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  "date-time": (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(v) && !Number.isNaN(Date.parse(v)),
  uuid: (v) => typeof v === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
  int32: (v) => typeof v === "number" && v >= -(2 ** 31) && v < 2 ** 31,
  uint32: (v) => typeof v === "number" && v >= 0 && v < 2 ** 32,
  int64: (v) => typeof v === "number" && Number.isSafeInteger(v),
  uint64: (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0,
};

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  const actual = typeOf(v);
  return type === actual || (type === "number" && actual === "integer");
}

const show = (v: unknown) => JSON.stringify(v);

function numberProblems(s: SchemaFacts, v: number): string[] {
  const out: string[] = [];
  const exMin = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : s.exclusiveMinimum === true ? s.minimum : undefined;
  const exMax = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : s.exclusiveMaximum === true ? s.maximum : undefined;
  if (exMin !== undefined && !(v > exMin)) out.push(`${v} is not above ${exMin}`);
  else if (s.minimum !== undefined && v < s.minimum) out.push(`${v} is below the minimum ${s.minimum}`);
  if (exMax !== undefined && !(v < exMax)) out.push(`${v} is not below ${exMax}`);
  else if (s.maximum !== undefined && v > s.maximum) out.push(`${v} is above the maximum ${s.maximum}`);
  return out;
}

function stringProblems(s: SchemaFacts, v: string): string[] {
  const out: string[] = [];
  if (s.minLength !== undefined && v.length < s.minLength) out.push(`${show(v)} is shorter than ${s.minLength}`);
  if (s.maxLength !== undefined && v.length > s.maxLength) out.push(`${show(v)} is longer than ${s.maxLength}`);
  if (s.pattern !== undefined && !new RegExp(s.pattern, "u").test(v)) out.push(`${show(v)} does not match ${s.pattern}`);
  return out;
}

function objectProblems(s: SchemaFacts, v: Record<string, unknown>, at: string): string[] {
  const out: string[] = [];
  const inner = (k: string) => (at ? `${at}.${k}` : k);
  for (const k of s.required ?? []) if (v[k] === undefined) out.push(`${inner(k)}: required, missing`);
  for (const [k, value] of Object.entries(v)) {
    const known = s.properties?.[k];
    if (known) out.push(...valueProblems(known, value, inner(k)));
    else if (s.additionalProperties === false) out.push(`${inner(k)}: not a property of this body (allowed: ${Object.keys(s.properties ?? {}).join(", ")})`);
    else if (s.additionalProperties) out.push(...valueProblems(s.additionalProperties, value, inner(k)));
  }
  return out;
}

function arrayProblems(s: SchemaFacts, v: readonly unknown[], at: string): string[] {
  const out: string[] = [];
  if (s.minItems !== undefined && v.length < s.minItems) out.push(`${at}: ${v.length} items, fewer than ${s.minItems}`);
  if (s.maxItems !== undefined && v.length > s.maxItems) out.push(`${at}: ${v.length} items, more than ${s.maxItems}`);
  if (s.items) v.forEach((item, i) => out.push(...valueProblems(s.items as SchemaFacts, item, `${at}[${i}]`)));
  return out;
}

/** Problems of the checks past the type (enum, bounds, format, members). */
function contentProblems(s: SchemaFacts, v: unknown, at: string): string[] {
  const where = at ? `${at}: ` : "";
  if (s.enum && !s.enum.some((e) => e === v)) return [`${where}${show(v)} is not one of ${s.enum.map(show).join(", ")}`];
  if (s.const !== undefined && s.const !== v) return [`${where}${show(v)} is not ${show(s.const)}`];
  const out: string[] = [];
  if (s.format && FORMATS[s.format] && !FORMATS[s.format]?.(v)) out.push(`${show(v)} is not a valid ${s.format}`);
  if (typeof v === "number") out.push(...numberProblems(s, v));
  if (typeof v === "string") out.push(...stringProblems(s, v));
  const prefixed = out.map((p) => where + p);
  if (Array.isArray(v)) prefixed.push(...arrayProblems(s, v, at || "(value)"));
  else if (typeOf(v) === "object") prefixed.push(...objectProblems(s, v as Record<string, unknown>, at));
  return prefixed;
}

/** Every way `v` breaks `s`; `at` names the place (`bytes`, `pools[0].name`; "" for the whole value). */
export function valueProblems(s: SchemaFacts, v: unknown, at = ""): string[] {
  if (v === null && s.nullable) return [];
  if (s.anyOf) {
    const each = s.anyOf.map((branch) => valueProblems({ ...s, anyOf: undefined, ...branch }, v, at));
    return each.some((p) => p.length === 0) ? [] : [`${at ? `${at}: ` : ""}${show(v)} matches none of its ${s.anyOf.length} forms (${each.map((p) => p[0]).join("; ")})`];
  }
  if (s.type !== undefined) {
    const types = typeof s.type === "string" ? [s.type] : s.type;
    if (!types.some((t) => typeMatches(t, v))) return [`${at ? `${at}: ` : ""}${show(v)} is ${typeOf(v)}, not ${types.join(" or ")}${s.nullable ? " or null" : ""}`];
  }
  return contentProblems(s, v, at);
}

/** Text of a query or path value as the value its schema describes; an unreadable text stays text (and fails the type check). */
function scalarFromWire(s: SchemaFacts, text: string): unknown {
  const types = s.type === undefined ? [] : typeof s.type === "string" ? [s.type] : s.type;
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  return text;
}

/**
 * The problems of a parameter sent as text: one value, or the repeated values of an array
 * (comma-separated when `explode` is false). Several values of a parameter that takes one are
 * a problem of their own.
 */
export function wireProblems(s: SchemaFacts, sent: string | readonly string[], at: string, explode = true): string[] {
  const values = typeof sent === "string" ? [sent] : [...sent];
  const branches = s.anyOf ? s.anyOf.map((b) => ({ ...s, anyOf: undefined, ...b })) : [s];
  const problemsOf = (b: SchemaFacts): string[] => {
    if (b.type === "array") {
      const items = explode ? values : values.flatMap((v) => v.split(","));
      return valueProblems(b, items.map((v) => scalarFromWire(b.items ?? {}, v)), at);
    }
    if (values.length !== 1) return [`${at}: sent ${values.length} times (${values.map(show).join(", ")}), but it takes one value`];
    return valueProblems(b, scalarFromWire(b, values[0] as string), at);
  };
  const each = branches.map(problemsOf);
  if (each.some((p) => p.length === 0)) return [];
  return each.length === 1 ? (each[0] as string[]) : [`${at}: ${show(sent)} matches none of its ${each.length} forms (${each.map((p) => p[0]).join("; ")})`];
}
