/**
 * Pacing of the requests to one API: a limit on requests in flight, and a shared pause per API
 * family after a 429.
 *
 * Why: the engine runs up to `--parallel` operations at once (the default grows with the CPU
 * count, pipelines raise it) and each resource calls the API on its own, so nothing else bounds
 * what one `pulumi up` sends at once. And when the server answers 429 with a Retry-After, every
 * other request to that part of the API would get the same answer: one Retry-After now holds
 * them all (a "family": cloud, storage, ...), instead of each resource learning it on its own.
 *
 * Where it sits: around the single-attempt send of the transport (client.ts). The retry loop
 * stays as it is: it still waits the Retry-After of its own 429 and decides what is retried, so
 * per-endpoint budget rules (the delegation-status budget) keep working; the pacer only delays
 * attempts, never past the request's own remaining budget, and it never fails or repeats one.
 * Pacers are shared by every client of the process that talks to the same base URL (the dynamic
 * provider's client and each lookup's client), through {@link sharedPacer}.
 */
import { ConfigurationError } from "./errors";
import { sleep as defaultSleep } from "./sleep";

/** Requests in flight to one API when nothing is configured. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;
/** Highest accepted limit: more would only move the queue from here to the server. */
export const MAX_CONCURRENT_REQUESTS_LIMIT = 256;
/** Config key and environment variable of the limit (named in errors). */
export const MAX_CONCURRENT_REQUESTS_CONFIG = "cloudplatform:maxConcurrentRequests";
/** Environment fallback of {@link MAX_CONCURRENT_REQUESTS_CONFIG}. */
export const MAX_CONCURRENT_REQUESTS_ENV = "CLOUDPLATFORM_MAX_CONCURRENT_REQUESTS";

/**
 * The limit from a setting (a number, or a string from config or the environment); undefined
 * means the default. Throws ConfigurationError naming the setting and the allowed values.
 */
export function parseMaxConcurrentRequests(value: number | string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_MAX_CONCURRENT_REQUESTS;
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENT_REQUESTS_LIMIT) {
    throw new ConfigurationError(
      `maxConcurrentRequests must be an integer from 1 to ${MAX_CONCURRENT_REQUESTS_LIMIT} (default ${DEFAULT_MAX_CONCURRENT_REQUESTS}), ` +
        `got ${JSON.stringify(String(value))}: set the Pulumi config \`${MAX_CONCURRENT_REQUESTS_CONFIG}\` or the environment variable ${MAX_CONCURRENT_REQUESTS_ENV}.`,
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
  /** Stops waiting (the attempt then runs and fails at once on the aborted signal). */
  readonly signal?: AbortSignal | undefined;
  /**
   * The caller already waited out the Retry-After that set the family's pause (the retry of
   * the request that got the 429): it passes the pause and only waits for a slot.
   */
  readonly pauseWaited?: boolean | undefined;
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
  readonly maxConcurrent: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly pauses = new Map<string, number>();

  constructor(options: PacerOptions) {
    this.maxConcurrent = parseMaxConcurrentRequests(options.maxConcurrent);
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? defaultSleep;
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
      if (ms !== undefined && ms > 0) this.pause(family, ms);
      throw err;
    } finally {
      this.release();
    }
  }

  /** Holds the family's requests for `ms` from now (a longer pause already set is kept). */
  pause(family: string, ms: number): void {
    const until = this.now() + ms;
    if ((this.pauses.get(family) ?? 0) < until) this.pauses.set(family, until);
  }

  /** In flight, queued, and paused families (for tests and reports). */
  state(): PacerState {
    const now = this.now();
    const pausedUntil: Record<string, number> = {};
    for (const [family, until] of this.pauses) if (until > now) pausedUntil[family] = until;
    return { inFlight: this.inFlight, queued: this.waiting.length, pausedUntil };
  }

  /**
   * Waits out the family's pause, then for a slot; a pause that began while waiting for the
   * slot gives the slot back (another family may use it) and waits again.
   */
  private async acquire(family: string, { signal, pauseWaited, maxPauseMs, onHold }: SendOptions): Promise<void> {
    const holdUntil = this.now() + Math.max(0, maxPauseMs ?? Number.POSITIVE_INFINITY);
    const held = () => !pauseWaited && this.now() < holdUntil && this.pausedFor(family) > 0;
    let told = false;
    for (;;) {
      if (held() && !told) {
        told = true;
        onHold?.(Math.min(this.pausedFor(family), holdUntil - this.now()));
      }
      if (!pauseWaited) await this.waitPause(family, holdUntil, signal);
      if (this.inFlight < this.maxConcurrent) {
        this.inFlight++;
      } else {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
      // Here this request holds a slot (taken above, or handed over by `release`).
      if (signal?.aborted || !held()) return;
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.inFlight--;
  }

  private pausedFor(family: string): number {
    const until = this.pauses.get(family);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left <= 0) this.pauses.delete(family);
    return left;
  }

  /** Sleeps while the family is paused, but not past `holdUntil`. */
  private async waitPause(family: string, holdUntil: number, signal?: AbortSignal): Promise<void> {
    for (let left = this.pausedFor(family); left > 0 && !signal?.aborted; left = this.pausedFor(family)) {
      const allowed = holdUntil - this.now();
      if (allowed <= 0) return;
      await this.sleep(Math.min(left, allowed), signal);
    }
  }
}

const pacers = new Map<string, RequestPacer>();

/**
 * The pacer shared by every client of this process that talks to `baseUrl` with this limit.
 * Why shared: the dynamic provider makes one client per run but every lookup makes its own; a
 * limit per client would not bound what the process sends.
 */
export function sharedPacer(baseUrl: string, maxConcurrent: number | string | undefined): RequestPacer {
  const limit = parseMaxConcurrentRequests(maxConcurrent);
  const key = `${limit} ${baseUrl}`;
  let pacer = pacers.get(key);
  if (!pacer) {
    pacer = new RequestPacer({ maxConcurrent: limit });
    pacers.set(key, pacer);
  }
  return pacer;
}

/**
 * The family of a request path: the product (first path segment), except the delegation-status
 * endpoint, which has its own rate limit and budget rules and so pauses only itself.
 */
export function familyOf(path: string): string {
  const segments = path.split("/").filter((s) => s !== "");
  if (segments[0] === "dns" && segments[segments.length - 1] === "delegation-status") return "dns-delegation";
  return segments[0] ?? "";
}
