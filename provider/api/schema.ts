/**
 * Building blocks of the response schemas, and the check of a body against one. Schemas, not
 * hand-written readers, so a missing field never reads as `""`, `0` or `[]` (an event list of
 * `[]` means "every event is gone"); fields are required per docs/api-field-rules.md.
 */
import { z } from "zod";

/** A schema a response body is checked against; its output is what callers receive. */
export type ResponseSchema<T> = z.ZodType<T>;

/**
 * Declared as `export interface X extends Answer<typeof xSchema> {}`, so the type cannot drift
 * from the check and keeps its name in .d.ts files and docs/api.md.
 */
export type Answer<S extends z.ZodType> = Readonly<z.output<S>>;

/** The same array typed read-only: answers are not for changing. */
export function readonlyList<T>(list: T[]): readonly T[] {
  return list;
}

/** The same object typed read-only: answers are not for changing. */
export function readonlyRecord<V>(record: Record<string, V>): Readonly<Record<string, V>> {
  return record;
}

/** A non-empty string: names, ids and states the lifecycles compare. */
export const text = z.string().min(1);

/** Not zod's `.int()`, which refuses values past 2^53: the spec's limits are uint64. */
const wholeNumber = z.number().refine(Number.isInteger, { message: "expected an integer" });

/** An integer (ids, counts); the API sends numbers, never numeric strings. */
export const int = wholeNumber;

/** A non-negative integer (counts, limits). */
export const count = wholeNumber.refine((n) => n >= 0, { message: "expected a non-negative integer" });

/** A string the spec leaves open: absent and `null` both read as `null`. */
export const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

/** An integer the spec leaves open: absent and `null` both read as `null`. */
export const optionalInt = int
  .nullish()
  .transform((v) => v ?? null);

/** A number the spec leaves open: absent and `null` both read as `null`. */
export const optionalNumber = z
  .number()
  .nullish()
  .transform((v) => v ?? null);

/** A list the spec leaves open: absent and `null` read as `[]`. */
export function optionalList<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((v): readonly z.output<T>[] => v ?? []);
}

/** An object the spec leaves open: absent and `null` read as `null`. */
export function optionalObject<T>(schema: z.ZodType<T>) {
  return schema.nullish().transform((v): T | null => v ?? null);
}

/** Absent reads as `null`, "not reported", never `false` (a missing `zone_exists` is not "no zone"). */
export const optionalBoolean = z
  .boolean()
  .nullish()
  .transform((v) => v ?? null);

/** A non-negative integer the spec leaves open: absent and `null` both read as `null`. */
export const optionalCount = count.nullish().transform((v) => v ?? null);

/** A list of strings the platform may send as `null` (a Go server's empty slice): reads as `[]`. */
export const optionalStrings = optionalList(z.string());

/** Labels, taints, overrides: absent reads as `{}`; an entry sent as `null` is not set and left out. */
export const optionalStringMap = z
  .record(z.string(), z.string().nullable())
  .nullish()
  .transform((v): Readonly<Record<string, string>> =>
    readonlyRecord(Object.fromEntries(Object.entries(v ?? {}).filter((entry): entry is [string, string] => entry[1] !== null))),
  );

/**
 * Reads an older spelling of a field (still sent by some endpoints) under its current name,
 * before the schema, so messages name the current field.
 */
export function withAliases<T extends z.ZodType>(aliases: Readonly<Record<string, string>>, schema: T) {
  return z.preprocess((v) => {
    if (!isRecord(v)) return v;
    let out: Record<string, unknown> | undefined;
    for (const [current, older] of Object.entries(aliases)) {
      if (v[current] == null && v[older] != null) {
        out ??= { ...v };
        out[current] = v[older];
      }
    }
    return out ?? v;
  }, schema);
}

/**
 * For an answer whose every field may be left out: a body with none of `keys` (`{}`, an error
 * object answered with 200) is not that answer, and must not read as one that reports nothing.
 */
export function withAnyOf<T extends z.ZodType>(keys: readonly string[], what: string, schema: T) {
  return z
    .unknown()
    .superRefine((body, ctx) => {
      if (isRecord(body) && keys.some((key) => key in body)) return;
      ctx.addIssue({ code: "custom", path: [], message: `expected an object with ${what} (${keys.join(", ")}); none is there` });
    })
    .pipe(schema);
}

/** True for a plain JSON object (not null, not a list). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `count` is required: a server may cap pages below `limit`, so only the total tells the last page. */
export function offsetPage<T extends z.ZodType>(item: T) {
  return z.object({ count, results: z.array(item) });
}

/** For regions (the spec shows no total) and upgrade versions (one page); read until an empty page. */
export function offsetPageWithoutCount<T extends z.ZodType>(item: T) {
  return z.object({ count: optionalCount, results: z.array(item) });
}

/** What went wrong when a body did not match its schema. */
export interface SchemaMismatch {
  /** E.g. `results[0].version`; `(body)` for the body as a whole. */
  readonly field: string;
  readonly problem: string;
  /** Undefined when the field is missing. */
  readonly value: unknown;
}

/** The transformed value, or the first mismatch. */
export function checkBody<T>(schema: ResponseSchema<T>, body: unknown): { ok: true; value: T } | { ok: false; mismatch: SchemaMismatch } {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const value = valueAt(body, path);
  return { ok: false, mismatch: { field: fieldName(path), problem: problemOf(issue, value), value } };
}

/** `["results", 0, "version"]` -> `results[0].version`. */
export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(body)";
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "");
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = body;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function problemOf(issue: z.core.$ZodIssue | undefined, value: unknown): string {
  if (!issue) return "it does not have the documented shape";
  if (issue.code === "invalid_type") {
    return value === undefined ? `required ${issue.expected} is missing` : `expected ${issue.expected}, got ${kindOf(value)}`;
  }
  const words = issue.message.replace(/^Invalid (option|input): /, "");
  return value === undefined ? `required field is missing (${words})` : words;
}

/** `null`, `array`, `string`, ... for messages. */
export function kindOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}
