/**
 * Answer dialects (CONTRACT.md "Dialects").
 *
 * The simulator is written from the spec, and by default ("regular") its answers are the most
 * regular the spec allows: every field present, lists as `[]`, the spec's field names, pages as
 * large as asked. The live platform is less tidy. The "public-api" dialect makes the answers
 * take every shape the platform's PUBLIC material allows (its OpenAPI files, the official
 * Python SDK's models, the older hand-written Go SDK and its fixtures): optional fields left
 * out, empty lists sent as `null`, older field names, server-side page caps, unknown fields and
 * enum values, JSON labelled as text. A client that works against both dialects does not depend
 * on anything the public material leaves open.
 *
 * Design: this module names the dialects and holds what every shape shares; the shaping
 * functions live beside the routes they serve, one module per product (`answers/cloud.ts`,
 * `answers/k8s.ts`, ...). Each takes the answer the regular dialect builds and returns the
 * answer to send, unchanged for "regular". Routes call them at the one place each answer is
 * serialised, so the behaviour (lifecycles, locks, validation, errors) is shared by both
 * dialects and only shapes differ. Nothing here mutates the state: answers are rebuilt.
 * Variants that apply to "some" items depend on the item's position or name, never on chance,
 * so tests are repeatable.
 */
import type { JsonObject } from "./state";

/** How the simulator shapes its answers: the spec's regular shapes, or the public API's variety. */
export type SimulatorDialect = "regular" | "public-api";

/** Every dialect, in the order error messages list them. */
export const DIALECTS: readonly SimulatorDialect[] = ["regular", "public-api"];

/** Whether a value names a dialect; for validating options, CLI flags and admin bodies. */
export function isDialect(value: unknown): value is SimulatorDialect {
  return typeof value === "string" && (DIALECTS as readonly string[]).includes(value);
}

/**
 * Checks a dialect name from outside (option, `--dialect`, `POST /__admin/dialect`).
 *
 * Why throw with the allowed values: a typo must not silently run the regular dialect.
 * @param what how the caller names the value in the message (e.g. `--dialect`)
 */
export function parseDialect(value: unknown, what = "dialect"): SimulatorDialect {
  if (isDialect(value)) return value;
  throw new Error(`${what} must be one of: ${DIALECTS.join(", ")} (got ${JSON.stringify(value) ?? "nothing"})`);
}

/** Name of the unknown field "public-api" adds wherever an answer may carry unknown fields. */
export const FUTURE_FIELD = "x_future_field";

/**
 * Value of the unknown field: an object, the hardest kind to ignore by accident (a client that
 * copies unknown fields into typed outputs or iterates every key meets it).
 */
export function futureValue(): JsonObject {
  return { introduced_in: "a later API version", enabled: true, items: [1, 2] };
}

/** Whether answers take the public API's variety of shapes (else the regular ones, unchanged). */
export function isPublicApi(dialect: SimulatorDialect): boolean {
  return dialect === "public-api";
}

/** A copy of `obj` with the unknown field added. */
export function withFuture(obj: JsonObject): JsonObject {
  return { ...obj, [FUTURE_FIELD]: futureValue() };
}

/** A copy of `obj` without `keys`. */
export function omit(obj: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/** `null` for an empty or absent list (a Go server's nil slice), the list otherwise. */
export function nilIfEmpty<T>(list: T[] | null | undefined): T[] | null {
  return list && list.length > 0 ? list : null;
}

/**
 * Any answer object that may carry unknown fields: unchanged for "regular", with
 * `x_future_field` for "public-api". Why: every public schema is open (no
 * `additionalProperties: false`; the SDKs' models keep extra fields), so the server may add
 * fields at any time.
 */
export function extraFields(dialect: SimulatorDialect, obj: JsonObject): JsonObject {
  return isPublicApi(dialect) ? withFuture(obj) : obj;
}
