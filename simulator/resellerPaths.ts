/**
 * Which WAAP reseller paths the simulator serves (CONTRACT.md "Reseller paths"): apart from the
 * routes, so the context and the start-up options can name it without importing the router.
 */

/** Both sets (default): the public OpenAPI's `/waap/v1/...` and `/waap/ping`, and the spec's `/waap/reseller/...`; or only one. */
export type ResellerPathsServed = "both" | "public" | "spec";

/** Every value of `ResellerPathsServed`, in the order error messages list them. */
export const RESELLER_PATHS_SERVED: readonly ResellerPathsServed[] = ["both", "public", "spec"];

/** Checks a value from outside (option, `--reseller-paths`): a typo must not serve both silently. */
export function parseResellerPathsServed(value: unknown, what = "resellerPaths"): ResellerPathsServed {
  if (typeof value === "string" && (RESELLER_PATHS_SERVED as readonly string[]).includes(value)) return value as ResellerPathsServed;
  throw new Error(`${what} must be one of: ${RESELLER_PATHS_SERVED.join(", ")} (got ${JSON.stringify(value) ?? "nothing"})`);
}
