/**
 * Answer dialects (CONTRACT.md "Dialects").
 *
 * "regular" answers in the most regular shapes the spec allows; "public-api" in every shape the
 * platform's PUBLIC material allows (its OpenAPI files, the official Python SDK's models, the
 * older Go SDK and its fixtures). A client that works against both depends on nothing that
 * material leaves open.
 *
 * Each module in `answers/` gives one set of shapers per dialect; the simulator picks the sets
 * when its dialect is set (`answers/index.ts`), so routes never branch on the dialect and share
 * every behaviour but the shapes. Shapers rebuild answers and never touch the state. Variants
 * that apply to "some" items depend on the item's position or name, never on chance, so tests
 * are repeatable.
 */
import type { JsonObject } from "./state";

/** How the simulator shapes its answers: the spec's regular shapes, or the public API's variety. */
export type SimulatorDialect = "regular" | "public-api";

/** Every dialect, in the order error messages list them. */
export const DIALECTS: readonly SimulatorDialect[] = ["regular", "public-api"];

/** One value per dialect: the compiler then asks every answer module for a new dialect's shapes. */
export type ByDialect<T> = Readonly<Record<SimulatorDialect, T>>;

/** Whether a value names a dialect; for validating options, CLI flags and admin bodies. */
export function isDialect(value: unknown): value is SimulatorDialect {
  return typeof value === "string" && (DIALECTS as readonly string[]).includes(value);
}

/**
 * Checks a dialect name from outside (option, `--dialect`, `POST /__admin/dialect`): a typo
 * must not silently run the regular dialect.
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

/**
 * A copy of `obj` with the unknown field added. Why allowed: no public schema forbids extra
 * fields (no `additionalProperties: false`) and the SDKs' models keep them.
 */
export function withFuture(obj: JsonObject): JsonObject {
  return { ...obj, [FUTURE_FIELD]: futureValue() };
}

/** The answer as the regular dialect built it. */
export function unchanged<T>(answer: T): T {
  return answer;
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
