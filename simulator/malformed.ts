/**
 * Malformed-answer faults (CONTRACT.md "Malformed answers"): the real handler runs and acts, and
 * then its answer is spoilt the way gateways, WAFs, captive portals and half-broken deployments
 * spoil answers: a 200 HTML sign-in page, an nginx 502 page, JSON cut in half, every value
 * `null`, `{"weird": 1}`, an empty body, a body far larger than any real one, a body that
 * stalls half way.
 *
 * Why applied after the handler: a client must never read such an answer as "absent" or "not
 * done"; the write behind it did take effect, which is exactly the case a client gets wrong.
 * Why seeded: a failing run must be replayable; each draw depends only on the rule's seed, the
 * request's method and path (UUIDs count as one) and how many matching requests came before.
 */
import { fraction, matchesRequest, nonNegativeInteger, requestFilter, type RequestFilter } from "./adminBody";
import { simpleError } from "./errors";
import { draw, normalizedRequestKey, randomSeed } from "./faults";
import type { RouteResult } from "./routeResult";
import { isObject, type JsonObject } from "./state";

/** Every way an answer can be spoilt. */
export const MALFORMED_MODES = ["html200", "html502", "truncated", "nulls", "wrongShape", "emptyBody", "hugeBody", "slowBody"] as const;

/** One way an answer can be spoilt. */
export type MalformedMode = (typeof MALFORMED_MODES)[number];

/** Default size of a `hugeBody` answer: larger than the 64 MiB a careful client accepts. */
export const DEFAULT_HUGE_BYTES = 72 * 1024 * 1024;
/** Default stall of a `slowBody` answer, after its first half: longer than a 30 s client timeout. */
export const DEFAULT_SLOW_MS = 60_000;

/** One rule as `POST /__admin/malformed` takes it (and `GET /__admin/malformed` shows it). */
export interface MalformedRule extends RequestFilter {
  /** The modes to use; one is drawn per spoilt answer when there are several. */
  modes: MalformedMode[];
  /** Let this many matching requests pass first (what is left of it): "the read-back, not the pre-check". */
  after?: number;
  /** Only the first this many matching requests (what is left of it). */
  times?: number;
  /** Spoil a matching request with this seeded probability (none: every matching request). */
  rate?: number;
  /** Seed of the rate and mode draws. */
  seed: number;
  /** Size of a `hugeBody` answer in bytes. */
  hugeBytes: number;
  /** How long a `slowBody` answer stalls after its first half, ms. */
  slowMs: number;
  /** How many answers this rule has spoilt. */
  applied: number;
}

function isMode(v: unknown): v is MalformedMode {
  return typeof v === "string" && (MALFORMED_MODES as readonly string[]).includes(v);
}

/** Reads the body of `POST /__admin/malformed` (400 naming the first bad field); `defaultSeed` when it gives none. */
export function parseMalformedRule(b: JsonObject, defaultSeed: number | undefined): MalformedRule {
  const modes = b.modes !== undefined ? b.modes : b.mode !== undefined ? [b.mode] : undefined;
  if (!Array.isArray(modes) || modes.length === 0 || !modes.every(isMode)) {
    throw simpleError(400, `mode (or modes, a non-empty list) must be one of ${MALFORMED_MODES.join(", ")}`);
  }
  const rule: MalformedRule = { modes: [...modes], seed: 0, hugeBytes: DEFAULT_HUGE_BYTES, slowMs: DEFAULT_SLOW_MS, applied: 0, ...requestFilter(b) };
  const times = nonNegativeInteger(b, "times");
  if (times !== undefined) rule.times = times;
  const after = nonNegativeInteger(b, "after");
  if (after !== undefined) rule.after = after;
  const rate = fraction(b, "rate");
  if (rate !== undefined) rule.rate = rate;
  rule.seed = nonNegativeInteger(b, "seed") ?? defaultSeed ?? randomSeed();
  rule.hugeBytes = nonNegativeInteger(b, "hugeBytes") ?? DEFAULT_HUGE_BYTES;
  rule.slowMs = nonNegativeInteger(b, "slowMs") ?? DEFAULT_SLOW_MS;
  return rule;
}

/** What to do to one answer: the mode and the sizes it needs. */
export interface MalformedChoice {
  readonly mode: MalformedMode;
  readonly hugeBytes: number;
  readonly slowMs: number;
}

/** The malformed-answer rules of one simulator, applied in the order they were added. */
export class MalformedRules {
  private rules: MalformedRule[] = [];
  private readonly seen = new Map<string, number>();

  /** @param defaultSeed the seed used when a rule gives none (the CLI's `--fault-seed`). */
  constructor(private readonly defaultSeed?: number) {}

  /** Adds a rule from an admin body; returns it with its seed. */
  add(body: JsonObject): MalformedRule {
    const rule = parseMalformedRule(body, this.defaultSeed);
    this.rules.push(rule);
    return { ...rule, modes: [...rule.modes] };
  }

  /** The rules (copies), with what is left of `times` and how often each applied. */
  list(): MalformedRule[] {
    return this.rules.map((r) => ({ ...r, modes: [...r.modes] }));
  }

  /** Removes every rule and restarts the draws. */
  clear(): void {
    this.rules = [];
    this.seen.clear();
  }

  /**
   * Whether to spoil the answer to this request, and how: the first rule that matches it, has
   * let its `after` requests pass, has `times` left and wins its seeded `rate` draw. Call once a
   * request that passed the faults.
   */
  take(method: string, path: string): MalformedChoice | undefined {
    const key = normalizedRequestKey(method, path);
    for (const [index, rule] of this.rules.entries()) {
      if (!matchesRequest(rule, method, path)) continue;
      if (rule.times !== undefined && rule.times <= 0) continue;
      if (rule.after !== undefined && rule.after > 0) {
        rule.after -= 1;
        continue;
      }
      const counter = `${index}|${key}`;
      const n = (this.seen.get(counter) ?? 0) + 1;
      this.seen.set(counter, n);
      if (rule.rate !== undefined && draw(`${rule.seed}|malformed|${key}|${n}`) >= rule.rate) continue;
      if (rule.times !== undefined) rule.times -= 1;
      rule.applied += 1;
      const pick = rule.modes.length === 1 ? 0 : Math.floor(draw(`${rule.seed}|malformed-mode|${key}|${n}`) * rule.modes.length);
      const mode = rule.modes[pick] ?? rule.modes[0] ?? "wrongShape";
      return { mode, hugeBytes: rule.hugeBytes, slowMs: rule.slowMs };
    }
    return undefined;
  }
}

/** A spoilt answer, ready to write: status, headers and body text (for `hugeBody`, a size instead). */
export interface MalformedAnswer {
  readonly status: number;
  readonly contentType: string | undefined;
  /** The body; `hugeBody` streams `hugeBytes` instead. */
  readonly body: string;
  /** `slowBody`: send `body` up to this offset, stall, then the rest. */
  readonly stallAt?: number;
}

/** A portal sign-in page, as a captive portal or an SSO gateway answers any URL. */
const SIGN_IN_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form method="post" action="/login">' +
  '<h1>Sign in to continue</h1><input name="user"><input name="password" type="password"><button>Sign in</button></form></body></html>\n';
/** The page nginx answers when its upstream fails. */
const NGINX_502 =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/** Every leaf value (string, number, boolean) replaced by null; keys and list lengths kept. */
export function nulled(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nulled);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nulled(v)]));
  return null;
}

/**
 * The spoilt form of the handler's `result` (CONTRACT.md "Malformed answers"). A mode that
 * changes a body works on `{}` when the handler answered without one (204).
 */
export function malformedAnswer(choice: MalformedChoice, result: RouteResult): MalformedAnswer {
  const json = "application/json; charset=utf-8";
  const real = result.body === undefined ? "{}" : JSON.stringify(result.body);
  const status = result.status === 204 ? 200 : result.status;
  switch (choice.mode) {
    case "html200":
      return { status: 200, contentType: "text/html; charset=utf-8", body: SIGN_IN_PAGE };
    case "html502":
      return { status: 502, contentType: "text/html", body: NGINX_502 };
    case "truncated":
      return { status, contentType: json, body: real.slice(0, Math.max(1, Math.floor(real.length / 2))) };
    case "nulls":
      return { status, contentType: json, body: JSON.stringify(result.body === undefined ? null : nulled(result.body)) };
    case "wrongShape":
      return { status, contentType: json, body: '{"weird":1}' };
    case "emptyBody":
      return { status, contentType: json, body: "" };
    case "hugeBody":
      return { status, contentType: json, body: real };
    case "slowBody":
      return { status, contentType: json, body: real, stallAt: Math.floor(real.length / 2) };
  }
}
