/**
 * DNS delegation status (spec "Delegation status of a domain").
 *
 * The endpoint is rate limited (default 5 requests per second, `delegationRateLimit` option);
 * past the limit it answers 429 `{error}` with a `Retry-After` header in whole seconds, so
 * clients can prove they wait the 429s out. Zones come from the seed; any other name returns a
 * zero result with `zone_exists: false`.
 */
import { simpleError, tooManyRequests } from "../errors";
import type { Route, RouteContext } from "../router";

/**
 * Sliding-window limiter on real time (rate limits are wall-clock, not simulated).
 *
 * Why sliding: it gives a precise Retry-After (when the oldest counted request leaves the window).
 */
export class SlidingWindowLimiter {
  private readonly requests: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private hits: number[] = [];

  constructor(requests: number, perSeconds: number, now: () => number = Date.now) {
    this.requests = Math.max(1, Math.floor(requests));
    this.windowMs = Math.max(1, perSeconds * 1000);
    this.now = now;
  }

  /** Counts one request; returns 0 when allowed, else seconds until a slot frees. */
  take(): number {
    const now = this.now();
    this.hits = this.hits.filter((t) => now - t < this.windowMs);
    if (this.hits.length >= this.requests) {
      const oldest = this.hits[0] ?? now;
      return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
    }
    this.hits.push(now);
    return 0;
  }

  /** Forgets all counted requests (admin reset). */
  clear(): void {
    this.hits = [];
  }
}

const ZONE_NAME = /^(?=.{1,253}\.?$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

function delegationStatus(ctx: RouteContext) {
  const name = (ctx.params.name ?? "").toLowerCase().replace(/\.$/, "");
  if (!ZONE_NAME.test(name)) throw simpleError(400, `invalid zone name: ${JSON.stringify(ctx.params.name ?? "")}`);
  const wait = ctx.sim.delegationLimiter.take();
  if (wait > 0) throw tooManyRequests("dns", wait, ctx.requestId);
  const known = ctx.sim.store.state.delegation[name];
  return ctx.sim.answers.dns.delegation(
    known ?? {
      authoritative_name_servers: [],
      service_authorized_count: 0,
      non_service_authorized_count: 0,
      is_whitelabel_delegation: false,
      zone_exists: false,
    },
  );
}

/** DNS routes. */
export const dnsRoutes: Route[] = [
  { method: "GET", pattern: /^\/dns\/v2\/analyze\/(?<name>[^/]+)\/delegation-status\/?$/, handler: delegationStatus },
];
