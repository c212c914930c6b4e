/**
 * Building blocks of the response schemas, and the one function that checks a body against one.
 *
 * Why schemas (zod) and not hand-written readers: a reader that turns a missing field into `""`,
 * `0`, `false` or `[]` hands the lifecycles a wrong value they cannot tell from a real one (an
 * event list of `[]` means "every event is gone"). Each product module declares the wire shape
 * of its answers once, requiring a field only where the API reference or the public OpenAPI
 * requires it and a decision of ours rests on it (docs/api-field-rules.md), the rest open;
 * the transport checks every 2xx body against it before any caller sees it, and the schema's
 * transform turns the snake_case wire into the camelCase answer. The answer type is inferred
 * from the schema ({@link Answer}), never written beside it, so the type and the check cannot
 * drift: a field the schema requires cannot be optional or nullable in the type.
 */
import { z } from "zod";

/** A schema a response body is checked against; its output is what callers receive. */
export type ResponseSchema<T> = z.ZodType<T>;

/**
 * The type callers receive from an answer schema: its output, fields read-only. Each answer type
 * is declared `export interface X extends Answer<typeof xSchema> {}`, with the TSDoc of its fields
 * on the object literal the schema's transform returns (TypeScript carries it into the type).
 * An interface, not a type alias, so the type keeps its name in .d.ts files, editors and
 * docs/api.md instead of being spelled out field by field.
 */
export type Answer<S extends z.ZodType> = Readonly<z.output<S>>;

/** A parsed list typed read-only (the same array, no copy): answers are not for changing. */
export function readonlyList<T>(list: T[]): readonly T[] {
  return list;
}

/** A parsed map typed read-only (the same object, no copy): answers are not for changing. */
export function readonlyRecord<V>(record: Record<string, V>): Readonly<Record<string, V>> {
  return record;
}

/** A non-empty string: names, ids and states the lifecycles compare. */
export const text = z.string().min(1);

/**
 * Any whole number, not only the safe integers: the spec's limits are uint64, so a value past
 * 2^53 is a real answer (it arrives rounded, as every JSON reader in JavaScript reads it), not a
 * malformed one. zod's own `.int()` refuses it.
 */
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

/** A list the spec leaves open: absent and `null` read as `[]`, anything else must be a list of `item`. */
export function optionalList<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullish()
    .transform((v): readonly z.output<T>[] => v ?? []);
}

/** An object the spec leaves open: absent and `null` read as `null`; `T` names its answer type. */
export function optionalObject<T>(schema: z.ZodType<T>) {
  return schema.nullish().transform((v): T | null => v ?? null);
}

/**
 * A flag whose absence must not read as `false` (a missing `zone_exists` is not "no zone"):
 * absent and `null` read as `null`, "not reported".
 */
export const optionalBoolean = z
  .boolean()
  .nullish()
  .transform((v) => v ?? null);

/** A non-negative integer the spec leaves open: absent and `null` both read as `null`. */
export const optionalCount = count.nullish().transform((v) => v ?? null);

/** A list of strings the platform may send as `null` (a Go server's empty slice): reads as `[]`. */
export const optionalStrings = optionalList(z.string());

/**
 * A map of strings to strings the spec leaves open (labels, taints, configuration overrides):
 * absent and `null` read as `{}`; keys are data, kept as sent; an entry sent as `null` is not
 * set, and is left out.
 */
export const optionalStringMap = z
  .record(z.string(), z.string().nullable())
  .nullish()
  .transform((v): Readonly<Record<string, string>> =>
    readonlyRecord(Object.fromEntries(Object.entries(v ?? {}).filter((entry): entry is [string, string] => entry[1] !== null))),
  );

/**
 * Reads an older spelling of a field under its current name, when only the older one is sent
 * (or the current one is `null`)
 * (the platform's older API versions, still answered by some endpoints). Applied before the
 * object's schema, so the schema and its messages name the current field.
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
 * `schema`, for a body that holds at least one of `keys`: every field of such an answer may be
 * left out, but a body with none of them (`{}`, `{"weird": 1}`, an error object answered with
 * 200) is not that answer, and must not read as one that reports nothing. `what` names the
 * answer in the message.
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

/**
 * An offset page `{count, results}` as the list endpoints send it. `count` is required: a server
 * may cap a page below the `limit` asked for, so only the total tells the last page from a short
 * one (the pager trusts it).
 */
export function offsetPage<T extends z.ZodType>(item: T) {
  return z.object({ count, results: z.array(item) });
}

/**
 * An offset page whose total may be left out (the spec shows none for regions; upgrade versions
 * are one page): `count` is `null` when absent, and the pager then reads until an empty page.
 */
export function offsetPageWithoutCount<T extends z.ZodType>(item: T) {
  return z.object({ count: optionalCount, results: z.array(item) });
}

/** What went wrong when a body did not match its schema. */
export interface SchemaMismatch {
  /** Where, e.g. `results[0].version`; `(body)` for the body as a whole. */
  readonly field: string;
  /** What was expected, e.g. `expected string, got null`. */
  readonly problem: string;
  /** The value found there (undefined when the field is missing). */
  readonly value: unknown;
}

/** Check `body` against `schema`: the transformed value, or the first mismatch. */
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
