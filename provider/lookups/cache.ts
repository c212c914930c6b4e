/**
 * The lookup cache: identical lookups in one program run are served from one request.
 *
 * Why a Promise cache: a program often asks for the same project or region in many places, and
 * often concurrently (several `getXOutput` resolve at once). Caching the Promise, not the value,
 * makes concurrent identical calls share the one request in flight. A failed call is evicted, so
 * a transient error is not repeated to later callers. The key holds the lookup name, the
 * normalized arguments and the base URL plus a hash of the API key, never the key itself.
 */
import { createHash } from "crypto";

/** A Promise cache with eviction on failure. */
export class LookupCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  /**
   * The cached Promise for `key`, or the one `load` starts now. A rejected Promise is removed
   * once it settles (unless it was already replaced), so the next caller tries again.
   */
  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) return hit as Promise<T>;
    const pending = load();
    this.entries.set(key, pending);
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    return pending;
  }

  /** Whether `key` is cached (loaded or in flight). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Number of cached entries. */
  get size(): number {
    return this.entries.size;
  }

  /** Forget everything. */
  clear(): void {
    this.entries.clear();
  }
}

/**
 * JSON with object keys sorted and `undefined` members dropped, so `{a: 1, b: undefined}` and
 * `{a: 1}` (and any key order) give the same text.
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : stableStringify(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
}

/** A short, one-way fingerprint of the API key: separates keys in the cache without holding one. */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex").slice(0, 16);
}

/** The cache key of one lookup call. */
export function lookupCacheKey(lookup: string, normalizedArgs: unknown, baseUrl: string, apiKey: string): string {
  return `${lookup} ${stableStringify(normalizedArgs)} ${baseUrl} ${keyFingerprint(apiKey)}`;
}

const scoped = new WeakMap<object, LookupCache>();
let processCache: LookupCache | undefined;

/**
 * The cache of one program run. `scope` identifies the run (the Pulumi SDK's per-run store, so
 * inline Automation API programs that run several times in one process do not see the previous
 * run's data); without a scope the process-wide cache is used, which for an ordinary
 * `pulumi up` is the same thing.
 */
export function cacheForScope(scope: object | undefined): LookupCache {
  if (!scope) return (processCache ??= new LookupCache());
  let cache = scoped.get(scope);
  if (!cache) {
    cache = new LookupCache();
    scoped.set(scope, cache);
  }
  return cache;
}
