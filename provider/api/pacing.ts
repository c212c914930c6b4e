/**
 * A limit on requests in flight to one API host (nothing else bounds what `--parallel`
 * operations send), and a pause per API family after a 429, since the family's other requests
 * would get the same answer. The pacer only delays attempts, never fails or repeats one.
 */
import { ConfigurationError } from "./errors";
import { sourceOf, type OptionSources } from "./optionNames";
import { sleep as defaultSleep } from "./sleep";
import { productOf } from "./url";

/** Requests in flight to one API when nothing is configured. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;
/** Highest accepted limit: more would only move the queue from here to the server. */
export const MAX_CONCURRENT_REQUESTS_LIMIT = 256;
/** The limit from a number or a config/environment string; undefined means the default. */
export function parseMaxConcurrentRequests(value: number | string | undefined, sources?: OptionSources): number {
  if (value === undefined || value === "") return DEFAULT_MAX_CONCURRENT_REQUESTS;
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENT_REQUESTS_LIMIT) {
    throw new ConfigurationError(
      `maxConcurrentRequests must be an integer from 1 to ${MAX_CONCURRENT_REQUESTS_LIMIT} (default ${DEFAULT_MAX_CONCURRENT_REQUESTS}), ` +
        `got ${JSON.stringify(String(value))}: set ${sourceOf("maxConcurrentRequests", sources)}.`,
    );
  }
  return n;
}

/** What the pacer needs from its surroundings; tests inject a fake clock and sleep. */
export interface PacerOptions {
  readonly maxConcurrent: number;
  readonly now?: (() => number) | undefined;
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** Per-attempt options of {@link RequestPacer.send}. */
export interface SendOptions {
  /** Ends a pause early, and takes a queued request out of the queue. */
  readonly signal?: AbortSignal | undefined;
  /** Same for all attempts of a request: the pause its own 429 set does not hold it (its retry loop waits). */
  readonly request?: symbol | undefined;
  /**
   * The request's remaining retry budget: after it the attempt is sent anyway, so one long
   * Retry-After cannot hold later requests past their own budgets.
   */
  readonly maxPauseMs?: number | undefined;
  /** Told once, before the attempt is held by its family's pause, how long that will be. */
  readonly onHold?: ((ms: number) => void) | undefined;
}

/** A snapshot for tests and progress lines. */
export interface PacerState {
  readonly inFlight: number;
  readonly queued: number;
  /** Families paused now, with the epoch ms their pause ends. */
  readonly pausedUntil: Readonly<Record<string, number>>;
}

/** The limit on requests in flight plus the per-family pauses of one API. */
export class RequestPacer {
  private limit: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private inFlight = 0;
  private readonly waiting: Array<{ readonly resolve: () => void }> = [];
  /** Per family: when its pause ends, and the request whose 429 set it. */
  private readonly pauses = new Map<string, { readonly until: number; readonly by: symbol | undefined }>();

  constructor(options: PacerOptions) {
    this.limit = parseMaxConcurrentRequests(options.maxConcurrent);
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? defaultSleep;
  }

  get maxConcurrent(): number {
    return this.limit;
  }

  /** Lowers the limit (a larger one is ignored); requests in flight finish. */
  lowerLimit(limit: number): void {
    this.limit = Math.min(this.limit, parseMaxConcurrentRequests(limit));
  }

  /** Sends one attempt when the family is not paused and a slot is free; `pauseOf` reads a 429's wait. */
  async send<T>(family: string, attempt: () => Promise<T>, pauseOf: (err: unknown) => number | undefined, options: SendOptions = {}): Promise<T> {
    await this.acquire(family, options);
    try {
      return await attempt();
    } catch (err) {
      const ms = pauseOf(err);
      if (ms !== undefined && ms > 0) this.pause(family, ms, options.request);
      throw err;
    } finally {
      this.release();
    }
  }

  /** Holds the family's requests, other than `by`, for `ms` from now (a longer pause already set is kept). */
  pause(family: string, ms: number, by?: symbol): void {
    const until = this.now() + ms;
    if ((this.pauses.get(family)?.until ?? 0) < until) this.pauses.set(family, { until, by });
  }

  state(): PacerState {
    const now = this.now();
    const pausedUntil: Record<string, number> = {};
    for (const [family, { until }] of this.pauses) if (until > now) pausedUntil[family] = until;
    return { inFlight: this.inFlight, queued: this.waiting.length, pausedUntil };
  }

  /**
   * Waits out the family's pause, then for a slot; a pause that began while waiting for the
   * slot gives the slot back (another family may use it) and waits again.
   */
  private async acquire(family: string, { signal, request, maxPauseMs, onHold }: SendOptions): Promise<void> {
    const holdUntil = this.now() + Math.max(0, maxPauseMs ?? Number.POSITIVE_INFINITY);
    const held = () => this.now() < holdUntil && this.pausedFor(family, request) > 0;
    let told = false;
    for (;;) {
      if (held() && !told) {
        told = true;
        onHold?.(Math.min(this.pausedFor(family, request), holdUntil - this.now()));
      }
      await this.waitPause(family, request, holdUntil, signal);
      if (this.inFlight < this.limit) {
        this.inFlight++;
      } else {
        await this.queueForSlot(signal);
      }
      // Here this request holds a slot (taken above, or handed over by `release`).
      if (signal?.aborted || !held()) return;
      this.release();
    }
  }

  /** Waits in line for a slot; an abort leaves the line and rejects with the signal's reason. */
  private queueForSlot(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const entry = {
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.waiting.push(entry);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  private release(): void {
    const next = this.inFlight <= this.limit ? this.waiting.shift() : undefined;
    if (next) next.resolve();
    else this.inFlight--;
  }

  /** How long the family's pause still holds `request` (0 for the request that set it). */
  private pausedFor(family: string, request: symbol | undefined): number {
    const pause = this.pauses.get(family);
    if (pause === undefined) return 0;
    const left = pause.until - this.now();
    if (left <= 0) this.pauses.delete(family);
    return request !== undefined && pause.by === request ? 0 : left;
  }

  /** Sleeps while the family's pause holds `request`, but not past `holdUntil`. */
  private async waitPause(family: string, request: symbol | undefined, holdUntil: number, signal?: AbortSignal): Promise<void> {
    for (let left = this.pausedFor(family, request); left > 0 && !signal?.aborted; left = this.pausedFor(family, request)) {
      const allowed = holdUntil - this.now();
      if (allowed <= 0) return;
      await this.sleep(Math.min(left, allowed), signal);
    }
  }
}

const pacers = new Map<string, RequestPacer>();

/**
 * The pacer shared by all clients of this process for one host:port, since every lookup makes
 * its own client. The smallest limit asked for wins: a limit is a promise not to send more.
 */
export function sharedPacer(baseUrl: string, maxConcurrent: number | string | undefined, sources?: OptionSources): RequestPacer {
  const limit = parseMaxConcurrentRequests(maxConcurrent, sources);
  const host = new URL(baseUrl).host;
  const pacer = pacers.get(host);
  if (pacer) {
    pacer.lowerLimit(limit);
    return pacer;
  }
  const created = new RequestPacer({ maxConcurrent: limit });
  pacers.set(host, created);
  return created;
}

/** A path's product, except delegation-status, which has its own rate limit and pauses only itself. */
export function familyOf(path: string): string {
  const product = productOf(path);
  return product === "dns" && path.split("/").filter((s) => s !== "").pop() === "delegation-status" ? "dns-delegation" : product;
}
