/**
 * Fault injection set through the admin API: latency, 429 bursts, 503s and connection resets,
 * for every request or only those a filter matches.
 *
 * Why seeded: a failing fault run must be replayable. Each draw is a pure function of the seed,
 * the fault kind, the request's method and path (UUIDs in it, new each run, count as one), and
 * how many requests with that method and path came before it since the faults were set, so the
 * same seed gives the same faults to the same requests even when unrelated requests interleave
 * differently.
 */
import { randomInt } from "crypto";
import { fraction, matchesRequest, nonNegativeInteger, requestFilter, type RequestFilter } from "./adminBody";
import { simpleError } from "./errors";
import { isObject, type JsonObject } from "./state";

/** Fault configuration accepted by `POST /__admin/faults` (CONTRACT.md). */
export interface FaultConfig extends RequestFilter {
  errorRate?: number;
  resetRate?: number;
  latencyMs?: number;
  /** `count` 429s with Retry-After; again after every `everyRequests` further matching requests, when set. */
  burst429?: { count: number; retryAfterSeconds: number; everyRequests?: number };
  /** Reset writes only after they were handled (the write took effect, the answer is lost). */
  afterHandling?: boolean;
  /** Only the first this many matching requests (what is left of it, in `GET /__admin/faults`). */
  times?: number;
  /** Seed of the 503 and reset draws; the same seed replays the same faults. */
  seed?: number;
}

/** Reads the body of `POST /__admin/faults` (400 naming the first bad field). */
export function parseFaultConfig(b: JsonObject): FaultConfig {
  const config: FaultConfig = {};
  const errorRate = fraction(b, "errorRate");
  const resetRate = fraction(b, "resetRate");
  if (errorRate !== undefined) config.errorRate = errorRate;
  if (resetRate !== undefined) config.resetRate = resetRate;
  if (b.latencyMs !== undefined) {
    if (typeof b.latencyMs !== "number" || b.latencyMs < 0) throw simpleError(400, "latencyMs must be a non-negative number");
    config.latencyMs = b.latencyMs;
  }
  if (b.burst429 !== undefined) config.burst429 = parseBurst(b.burst429);
  Object.assign(config, requestFilter(b));
  const times = nonNegativeInteger(b, "times");
  if (times !== undefined) config.times = times;
  const seed = nonNegativeInteger(b, "seed");
  if (seed !== undefined) config.seed = seed;
  if (b.afterHandling !== undefined) config.afterHandling = b.afterHandling === true;
  return config;
}

function parseBurst(burst: unknown): NonNullable<FaultConfig["burst429"]> {
  if (!isObject(burst) || typeof burst.count !== "number" || burst.count < 0) {
    throw simpleError(400, "burst429 must be {count, retryAfterSeconds, everyRequests?}");
  }
  const retry = typeof burst.retryAfterSeconds === "number" ? burst.retryAfterSeconds : 1;
  const parsed: NonNullable<FaultConfig["burst429"]> = { count: Math.floor(burst.count), retryAfterSeconds: retry };
  if (burst.everyRequests !== undefined) {
    if (typeof burst.everyRequests !== "number" || !Number.isInteger(burst.everyRequests) || burst.everyRequests < 1) {
      throw simpleError(400, "burst429.everyRequests must be a positive integer");
    }
    parsed.everyRequests = burst.everyRequests;
  }
  return parsed;
}

/** A fresh random seed (when neither the admin call nor the CLI gave one). */
export function randomSeed(): number {
  return randomInt(1, 2 ** 31);
}

/**
 * FNV-1a over a string, then one mulberry32 round: a uniform number in [0, 1). Shared with the
 * malformed-answer rules (`malformed.ts`), so every seeded fault draws the same way.
 */
export function draw(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let t = (h + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * `GET /cloud/v1/tasks/{uuid}`: the key of a request for the seeded draws. Why: ids the
 * simulator makes up afresh each run (task and event UUIDs) must not change the draws.
 */
export function normalizedRequestKey(method: string, path: string): string {
  return `${method} ${path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{uuid}")}`;
}

/** Fault state of one simulator. */
export class FaultController {
  private config: FaultConfig = {};
  private readonly seen = new Map<string, number>();
  /** Matching requests since the last 429 burst was used up (for `burst429.everyRequests`). */
  private sinceBurst = 0;
  private burstSize = 0;

  /** @param defaultSeed the seed used when `set()` is given none (the CLI's `--fault-seed`). */
  constructor(private readonly defaultSeed?: number) {}

  /** The active configuration (a copy), with the seed in use when any fault is set. */
  get(): FaultConfig {
    return JSON.parse(JSON.stringify(this.config)) as FaultConfig;
  }

  /** Replaces the configuration and restarts the seeded draws. */
  set(config: FaultConfig): void {
    this.config = { ...config, seed: config.seed ?? this.defaultSeed ?? randomSeed() };
    if (config.burst429) this.config.burst429 = { ...config.burst429 };
    this.seen.clear();
    this.sinceBurst = 0;
    this.burstSize = config.burst429?.count ?? 0;
  }

  /** Removes every fault. */
  clear(): void {
    this.config = {};
    this.seen.clear();
  }

  /** Whether the faults apply to a request, while `times` lasts. Call once a request: a match uses up one of `times`. */
  applies(method: string, path: string): boolean {
    const c = this.config;
    if (!matchesRequest(c, method, path)) return false;
    if (c.times === undefined) return true;
    if (c.times <= 0) return false;
    c.times -= 1;
    return true;
  }

  /** Latency to hold a matching request for, ms (applied before `decide`). */
  latencyMs(): number {
    return this.config.latencyMs ?? 0;
  }

  /**
   * Decides the response faults of one matching request, after its latency: a 429 from the
   * burst, else a 503 or a reset by their seeded rates (CONTRACT.md order). Call once a request.
   */
  decide(method: string, path: string): { retryAfter?: number; error: boolean; reset: boolean } {
    const key = normalizedRequestKey(method, path);
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    const roll = (kind: string, rate: number | undefined) =>
      rate !== undefined && rate > 0 && draw(`${this.config.seed ?? 0}|${kind}|${key}|${n}`) < rate;
    const retryAfter = this.take429();
    return {
      ...(retryAfter !== undefined ? { retryAfter } : {}),
      error: retryAfter === undefined && roll("503", this.config.errorRate),
      reset: retryAfter === undefined && roll("reset", this.config.resetRate),
    };
  }

  /** Whether writes are reset only after they were handled. */
  afterHandling(): boolean {
    return this.config.afterHandling === true;
  }

  /** One 429 of the burst, if any is left; with `everyRequests`, the burst comes back after that many requests. */
  private take429(): number | undefined {
    const burst = this.config.burst429;
    if (!burst) return undefined;
    if (burst.count <= 0 && burst.everyRequests !== undefined && this.burstSize > 0 && ++this.sinceBurst > burst.everyRequests) {
      burst.count = this.burstSize;
      this.sinceBurst = 0;
    }
    if (burst.count <= 0) return undefined;
    burst.count -= 1;
    return burst.retryAfterSeconds;
  }
}
