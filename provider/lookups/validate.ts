/**
 * Argument checking shared by all lookups: one message shape, and unknown names refused (a
 * JavaScript caller's typo such as `clientId` would otherwise silently widen a query).
 */
import { LookupArgumentError } from "./errors";

/** A value as it appears in messages: strings quoted, everything else as JSON or its type. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** An argument not known yet (an Output, a Promise) in `precheckLookup`: its checks are skipped. */
export const PENDING_ARGUMENT: unique symbol = Symbol("pending lookup argument");

const MAX_ID = Number.MAX_SAFE_INTEGER;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * ` (did you mean "X"?)` when an allowed value differs from `value` only in case or a `_v2`
 * suffix (the spec's `upgrade_k8s_cluster` is the platform's `upgrade_k8s_cluster_v2`), else "".
 */
function didYouMean(value: unknown, values: readonly string[]): string {
  if (typeof value !== "string") return "";
  const lower = value.trim().toLowerCase();
  const near = values.find((v) => v.toLowerCase() === lower || v === `${lower}_v2`);
  return near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
}

/** Each method returns the checked value or throws {@link LookupArgumentError}. */
export class ArgChecker {
  private readonly args: Readonly<Record<string, unknown>>;

  constructor(
    readonly lookup: string,
    raw: unknown,
    allowed: readonly string[],
  ) {
    if (raw === undefined || raw === null) raw = {};
    if (typeof raw !== "object" || Array.isArray(raw)) {
      throw new LookupArgumentError(lookup, "args", `must be an object; got ${describeValue(raw)}`);
    }
    this.args = raw as Record<string, unknown>;
    for (const key of Object.keys(this.args)) {
      if (!allowed.includes(key) && this.args[key] !== undefined) {
        throw new LookupArgumentError(
          lookup,
          key,
          allowed.length ? `is not an argument of ${lookup}; allowed arguments: ${allowed.join(", ")}` : `is not an argument of ${lookup}, which takes none`,
        );
      }
    }
  }

  /** A check that combines arguments runs only when they are known. */
  isKnown(...names: string[]): boolean {
    return names.every((n) => this.args[n] !== PENDING_ARGUMENT);
  }

  private pending(name: string): boolean {
    return this.args[name] === PENDING_ARGUMENT;
  }

  fail(name: string, problem: string): never {
    throw new LookupArgumentError(this.lookup, name, problem);
  }

  private raw(name: string): unknown {
    const v = this.args[name];
    return v === null ? undefined : v;
  }

  optionalInt(name: string, min: number, max: number = MAX_ID): number | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      const range = max === MAX_ID ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
      this.fail(name, `must be ${range}; got ${describeValue(v)}`);
    }
    return v;
  }

  int(name: string, min: number, max: number = MAX_ID): number {
    if (this.pending(name)) return undefined as never;
    const v = this.optionalInt(name, min, max);
    if (v === undefined) this.fail(name, `is required (an integer >= ${min}); got undefined`);
    return v;
  }

  optionalBool(name: string): boolean | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v !== "boolean") this.fail(name, `must be true or false; got ${describeValue(v)}`);
    return v;
  }

  /** Trimmed; when given it must be non-empty. */
  optionalString(name: string): string | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v !== "string" || v.trim() === "") this.fail(name, `must be a non-empty string; got ${describeValue(v)}`);
    return v.trim();
  }

  string(name: string): string {
    if (this.pending(name)) return undefined as never;
    const v = this.optionalString(name);
    if (v === undefined) this.fail(name, `is required (a non-empty string); got undefined`);
    return v;
  }

  optionalEnum<T extends string>(name: string, values: readonly T[]): T | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
      this.fail(name, `must be one of ${values.join(", ")}; got ${describeValue(v)}${didYouMean(v, values)}`);
    }
    return v as T;
  }

  enumOf<T extends string>(name: string, values: readonly T[]): T {
    if (this.pending(name)) return undefined as never;
    const v = this.optionalEnum(name, values);
    if (v === undefined) this.fail(name, `is required (one of ${values.join(", ")}); got undefined`);
    return v;
  }

  /** Returned sorted and de-duplicated. */
  optionalEnumList<T extends string>(name: string, values: readonly T[]): T[] | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const items = Array.isArray(v) ? v : [v];
    for (const item of items) {
      if (typeof item !== "string" || !(values as readonly string[]).includes(item)) {
        this.fail(name, `must be one of ${values.join(", ")} (or a list of them); got ${describeValue(item)}${didYouMean(item, values)}`);
      }
    }
    return [...new Set(items as T[])].sort();
  }

  /** Returned sorted and de-duplicated. */
  optionalIntList(name: string, min: number): number[] | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) this.fail(name, `must be a list of integers >= ${min}; got ${describeValue(v)}`);
    for (const item of v) {
      if (typeof item !== "number" || !Number.isInteger(item) || item < min) {
        this.fail(name, `must be a list of integers >= ${min}; got ${describeValue(item)} in ${describeValue(v)}`);
      }
    }
    return [...new Set(v as number[])].sort((a, b) => a - b);
  }

  isoDate(name: string): string {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) this.fail(name, `is required (a date in the form YYYY-MM-DD); got undefined`);
    if (typeof v !== "string" || !isIsoDate(v)) this.fail(name, `must be a date in the form YYYY-MM-DD (ISO 8601); got ${describeValue(v)}`);
    return v;
  }

  /** An optional ISO 8601 date (`YYYY-MM-DD`) or date-time (`YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]`). */
  optionalIsoDateTime(name: string): string | undefined {
    if (this.pending(name)) return undefined as never;
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const m = typeof v === "string" ? /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(v) : null;
    if (!m || !isIsoDate(m[1] ?? "")) {
      this.fail(name, `must be an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDThh:mm:ss); got ${describeValue(v)}`);
    }
    return v as string;
  }
}
