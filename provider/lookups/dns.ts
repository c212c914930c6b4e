/**
 * `getDelegationStatus`, a rate-limited endpoint: `rateLimitBudgetSeconds` bounds the total wait
 * for 429s, and a spent budget is said in plain words instead of a bare 429.
 */
import type { DelegationStatus } from "../api/dns/analyze";
import { formatDuration } from "../api/duration";
import { RateLimitError } from "../api/errors";
import { reworded } from "../caughtErrors";
import { LookupArgumentError } from "./errors";
import type { LookupDefinition } from "./runtime";
import { ArgChecker } from "./validate";

/** Default total time to wait out 429s, in seconds. */
export const DEFAULT_RATE_LIMIT_BUDGET_SECONDS = 60;
/** Largest accepted budget (an hour): beyond that a stuck rate limit should fail the run. */
export const MAX_RATE_LIMIT_BUDGET_SECONDS = 3600;

/** Arguments of `getDelegationStatus`. */
export interface GetDelegationStatusArgs {
  /** The zone (domain) name, e.g. `example.com`. A trailing dot is dropped. */
  readonly domain: string;
  /**
   * How long, in total, to keep waiting out 429 responses (honouring Retry-After), in seconds,
   * 0..3600 (default 60). 0 fails at the first 429.
   */
  readonly rateLimitBudgetSeconds?: number;
}

/** Result of `getDelegationStatus`. */
export interface GetDelegationStatusResult extends DelegationStatus {
  /** The zone that was analysed (normalized: lower case, no trailing dot). */
  readonly domain: string;
}

interface Normalized {
  readonly domain: string;
  readonly rateLimitBudgetSeconds: number;
}

/** `getDelegationStatus`. */
export const getDelegationStatusLookup: LookupDefinition<GetDelegationStatusArgs, Normalized, GetDelegationStatusResult> = {
  name: "getDelegationStatus",
  normalize(raw) {
    const c = new ArgChecker("getDelegationStatus", raw, ["domain", "rateLimitBudgetSeconds"]);
    let domain = c.string("domain");
    if (c.isKnown("domain")) {
      domain = domain.toLowerCase().replace(/\.$/, "");
      if (domain === "" || /[\s/?#]/.test(domain)) {
        throw new LookupArgumentError("getDelegationStatus", "domain", `must be a zone name such as "example.com"; got ${JSON.stringify(domain)}`);
      }
    }
    const budget = c.optionalInt("rateLimitBudgetSeconds", 0, MAX_RATE_LIMIT_BUDGET_SECONDS) ?? DEFAULT_RATE_LIMIT_BUDGET_SECONDS;
    return { domain, rateLimitBudgetSeconds: budget };
  },
  clientOptions: (a) => ({
    // The budget, not the attempt count, bounds the wait: a busy window may answer 429 many times.
    retry: { budgetMs: a.rateLimitBudgetSeconds * 1000, maxAttempts: 1000 },
  }),
  async execute({ client }, a) {
    try {
      const status = await client.dns.delegationStatus(a.domain);
      return { domain: a.domain, ...status };
    } catch (err) {
      throw err instanceof RateLimitError ? budgetSpent(err, a) : err;
    }
  },
};

/** The client's 429 said in the lookup's words first; the client's own message says the attempts. */
function budgetSpent(err: RateLimitError, a: Normalized): RateLimitError {
  return reworded(
    err,
    `the delegation-status endpoint is rate limited and still answered 429 for ${JSON.stringify(a.domain)} ` +
      `within the rate-limit budget of ${formatDuration(a.rateLimitBudgetSeconds * 1000, "seconds")} (rateLimitBudgetSeconds); ` +
      `raise rateLimitBudgetSeconds or make fewer delegation-status lookups. ${err.message}`,
  );
}
