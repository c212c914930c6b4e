/**
 * Identical lookups of one run share one request: the Promise is cached, so concurrent calls
 * share the one in flight; a failure is evicted. The key holds a hash of the API key, never the key.
 */
import { createHash } from "crypto";

export class LookupCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  /** A rejected Promise is removed once it settles, so the next caller tries again. */
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

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Keys sorted and `undefined` members dropped, so equal arguments give the same text. */
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

/** `scope` is the Pulumi SDK's per-run store, so inline Automation API runs in one process do not share data. */
export function cacheForScope(scope: object | undefined): LookupCache {
  if (!scope) return (processCache ??= new LookupCache());
  let cache = scoped.get(scope);
  if (!cache) {
    cache = new LookupCache();
    scoped.set(scope, cache);
  }
  return cache;
}
