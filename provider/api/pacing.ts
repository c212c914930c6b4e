/**
 * Pacing of the requests to one API host: a limit on requests in flight, and a shared pause per
 * API family after a 429.
 *
 * Why: the engine runs up to `--parallel` operations at once and each resource calls the API on
 * its own, so nothing else bounds what one `pulumi up` sends at once. And when the server
 * answers 429 with a Retry-After, every other request to that part of the API would get the same
 * answer: one Retry-After holds them all (a "family": cloud, storage, ...).
 *
 * The pacer wraps each attempt inside the retry loop (retryLoop.ts), which waits its own 429's
 * Retry-After and decides what is retried; the pacer only delays attempts, never past the
 * request's remaining budget, and never fails or repeats one.
 */
import { ConfigurationError } from "./errors";
import { sourceOf, type OptionSources } from "./optionNames";
import { sleep as defaultSleep } from "./sleep";
import { productOf } from "./url";

/** Requests in flight to one API when nothing is configured. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;
/** Highest accepted limit: more would only move the queue from here to the server. */
export const MAX_CONCURRENT_REQUESTS_LIMIT = 256;
/**
 * The limit from a setting (a number, or a string from config or the environment); undefined
 * means the default. Throws ConfigurationError naming the setting (`sources`, see
 * optionNames.ts) and the allowed values.
 */
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
  /** Requests in flight at most. */
  readonly maxConcurrent: number;
  readonly now?: (() => number) | undefined;
  readonly sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/** Per-attempt options of {@link RequestPacer.send}. */
export interface SendOptions {
  /**
   * Stops waiting: a pause ends early (the attempt then runs and fails at once on the aborted
   * signal), and a request queued for a slot leaves the queue, rejected with the signal's reason.
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * The request this attempt belongs to, the same for all its attempts: a pause its own 429 set
   * does not hold it, since its retry loop waits that Retry-After itself.
   */
  readonly request?: symbol | undefined;
  /**
   * The longest this attempt may be held by its family's pause (the request's remaining retry
   * budget). After it the attempt is sent anyway and the server's own answer decides: one 429
   * with a long Retry-After must not hold every later request past its own budget, nor a
   * lookup whose budget is 0.
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
  /** Requests queued for a slot, in order; `resolve` hands one a slot. */
  private readonly waiting: Array<{ readonly resolve: () => void }> = [];
  /** Per family: when its pause ends, and the request whose 429 set it. */
  private readonly pauses = new Map<string, { readonly until: number; readonly by: symbol | undefined }>();

  constructor(options: PacerOptions) {
    this.limit = parseMaxConcurrentRequests(options.maxConcurrent);
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? defaultSleep;
  }

  /** Requests in flight at most. */
  get maxConcurrent(): number {
    return this.limit;
  }

  /**
   * Lowers the limit to `limit` if that is smaller (a larger one is ignored): requests already in
   * flight finish, and queued ones start only once fewer than the new limit are in flight.
   */
  lowerLimit(limit: number): void {
    this.limit = Math.min(this.limit, parseMaxConcurrentRequests(limit));
  }

  /**
   * Sends one attempt when the family is not paused and a slot is free. `pauseOf` tells from a
   * failed attempt how long the server asked the family to wait (a 429's Retry-After), if at all.
   * The attempt's own result or error is passed through unchanged.
   */
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

  /** In flight, queued, and paused families (for tests and reports). */
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

  /**
   * Waits in line until `release` hands this request a slot; an abort takes it out of the line
   * at once and rejects with the signal's reason (the caller maps it to its abort error).
   */
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
 * The pacer shared by every client of this process that talks to the API host of `baseUrl`
 * (host and port; the path and scheme do not make another API). Why shared: the dynamic
 * provider makes one client per run but every lookup makes its own; a limit per client would not
 * bound what the process sends, nor would a 429 pause the other clients' requests.
 * When clients of one host ask for different limits, the smallest wins, from the moment the
 * client asking for it is created: a limit is a promise not to send more, and a larger one
 * asked for later must not break the smaller one already given.
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

/**
 * The family of a request path: its product, except the delegation-status endpoint, which has
 * its own rate limit and budget rules and so pauses only itself.
 */
export function familyOf(path: string): string {
  const product = productOf(path);
  return product === "dns" && path.split("/").filter((s) => s !== "").pop() === "delegation-status" ? "dns-delegation" : product;
}
