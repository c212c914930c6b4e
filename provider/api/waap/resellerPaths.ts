/**
 * Where the WAAP reseller endpoints are called, and what a provider process learns about it.
 *
 * The public OpenAPI (`waap_reseller_api.yaml` of G-Core/product-documentation, commit 5b666307)
 * and the official Python SDK (`gcore` 0.59.0, `client.waap.prebilling.get_total`) call
 * `/waap/v1/prebilling/total/{metric}` and `/waap/ping`; the API reference names
 * `/waap/reseller/v1/prebilling/total/{metric}` and `/waap/reseller/ping`. With `auto` (the
 * default) the public paths are tried first and the reference's when the platform answers 404
 * there; the outcome is remembered per base URL for the rest of the process, so the fallback
 * costs one request once.
 *
 * Why any 404 there means "path not served": the only path parameter, `metric`, is checked
 * against the enum before a lookup sends it, and the rest of the query can only be refused with
 * 400 or 422; the OpenAPI's 404 of both operations is the generic problem
 * `{type: http-not-found, detail: "The resource is not found"}` that a missing route gets too, so
 * no body tells a missing route from a missing thing, and nothing else can be missing. A metric
 * outside the enum (only a direct client call can send one) never decides: its 404 may be the
 * metric's own.
 */
import { ApiError, ConfigurationError } from "../errors";
import { sourceOf, type OptionSources } from "../optionNames";

/** `auto` (default): public paths first, the reference's after a 404; `public`/`spec` pin one set. */
export type ResellerPaths = "auto" | "public" | "spec";

/** Every value of the `resellerPaths` option, in the order error messages list them. */
export const RESELLER_PATHS: readonly ResellerPaths[] = ["auto", "public", "spec"];

/** One set of paths. */
export type ResellerPathForm = Exclude<ResellerPaths, "auto">;

/** The path prefixes of each set. */
export const RESELLER_PATH_PREFIXES: Readonly<Record<ResellerPathForm, { readonly totals: string; readonly ping: string }>> = {
  public: { totals: "/waap/v1/prebilling/total", ping: "/waap/ping" },
  spec: { totals: "/waap/reseller/v1/prebilling/total", ping: "/waap/reseller/ping" },
};

/** Undefined or "" is the default, `auto`. */
export function parseResellerPaths(value: string | undefined, sources?: OptionSources): ResellerPaths {
  if (value === undefined || value === "") return "auto";
  if ((RESELLER_PATHS as readonly string[]).includes(value)) return value as ResellerPaths;
  throw new ConfigurationError(`resellerPaths must be one of ${RESELLER_PATHS.join(", ")}, got ${JSON.stringify(value)}: set ${sourceOf("resellerPaths", sources)}.`);
}

interface Learned {
  form?: ResellerPathForm;
  /** Set while one call finds out; the others wait for it instead of probing too. */
  probing?: Promise<void>;
}

/** Per base URL: the set that answered, once one did. */
const learned = new Map<string, Learned>();

/** The set `auto` settled on for `baseUrl`, if any (for tests and diagnostics). */
export function learnedResellerPaths(baseUrl: string): ResellerPathForm | undefined {
  return learned.get(baseUrl)?.form;
}

/** Forgets what every base URL answered (tests: a simulator's port may be reused). */
export function forgetResellerPaths(): void {
  learned.clear();
}

function notServed(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** An answer only a served route gives: validation (400, 422); auth, 429 and 5xx may come from a gateway. */
function proves(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 400 || err.status === 422);
}

/**
 * Runs `call` at the set `paths` names; for `auto`, at the set learned for `baseUrl`, or finds it
 * out. `decisive` false (an unknown metric) calls the public set without learning anything.
 */
export async function atResellerPaths<T>(baseUrl: string, paths: ResellerPaths, decisive: boolean, call: (form: ResellerPathForm) => Promise<T>): Promise<T> {
  if (paths !== "auto") return call(paths);
  let entry = learned.get(baseUrl);
  if (!entry) learned.set(baseUrl, (entry = {}));
  while (entry.probing && !entry.form) await entry.probing;
  if (entry.form) return call(entry.form);
  if (!decisive) return call("public");
  let done = (): void => undefined;
  entry.probing = new Promise<void>((resolve) => (done = resolve));
  try {
    return await probe(entry, call);
  } finally {
    entry.probing = undefined;
    done();
  }
}

async function probe<T>(entry: Learned, call: (form: ResellerPathForm) => Promise<T>): Promise<T> {
  let publicError: unknown;
  try {
    const answer = await call("public");
    entry.form = "public";
    return answer;
  } catch (err) {
    if (!notServed(err)) {
      if (proves(err)) entry.form = "public";
      throw err;
    }
    publicError = err;
  }
  try {
    const answer = await call("spec");
    entry.form = "spec";
    return answer;
  } catch (err) {
    if (proves(err)) entry.form = "spec";
    // Both 404: the public path's error, the documented one, is the one to show.
    throw notServed(err) ? publicError : err;
  }
}
