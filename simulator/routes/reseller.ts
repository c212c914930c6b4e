/**
 * WAAP reseller endpoints: billing totals and ping (spec "Aggregated billable consumption",
 * "Health check"; query names and defaults as the live API has them), at two sets of paths
 * (CONTRACT.md "Reseller paths"): the spec's `/waap/reseller/v1/prebilling/total/{metric}` and
 * `/waap/reseller/ping`, and the public OpenAPI's (`waap_reseller_api.yaml`)
 * `/waap/v1/prebilling/total/{metric}` and `/waap/ping`. Both answer alike: the spec's shapes
 * (`amount` a number) and the OpenAPI's (`PaginatedResponse_BillingReportItem_`, `PongMessage`,
 * `amount` an integer) agree on whole numbers. Option `resellerPaths` serves only one set; the
 * other answers 404 as an unknown path does.
 *
 * Errors are RFC 7807 problem+json exactly as the spec's table: 422 request-validation-failed
 * with one `errors[]` item per bad field (missing `from`/`to`, non-integers, out-of-range
 * limit/offset, malformed dates), 400 http-bad-request when `to` is not after `from`, 404
 * http-not-found for an unknown metric.
 *
 * Totals are summed over the selected clients per date, dates ascending, `from` inclusive and
 * `to` exclusive. `count` is the number of items in this response (the API's own words: "number
 * of items contained in the response"), not the total; page until a page is shorter than `limit`.
 */
import { notFound, problem } from "../errors";
import type { Route, RouteContext } from "../router";
import { ok, type RouteResult } from "../routeResult";

/** Metrics of the totals endpoint. */
export const METRICS = ["domains", "volume", "requests", "requests_clean"] as const;

type FieldError = { loc: Array<string | number>; detail: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseDate(raw: string): string | undefined {
  const m = DATE.exec(raw);
  if (!m) return undefined;
  const d = new Date(`${raw}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== raw ? undefined : raw;
}

function intField(ctx: RouteContext, errors: FieldError[], name: string, def: number, min: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return def;
  if (!/^-?\d+$/.test(raw)) {
    errors.push({ loc: ["query", name], detail: "Input should be a valid integer, unable to parse string as an integer" });
    return def;
  }
  const n = Number(raw);
  if (n < min) errors.push({ loc: ["query", name], detail: `Input should be greater than or equal to ${min}` });
  else if (n > max) errors.push({ loc: ["query", name], detail: `Input should be less than or equal to ${max}` });
  return n;
}

function dateField(ctx: RouteContext, errors: FieldError[], name: string): string | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") {
    errors.push({ loc: ["query", name], detail: "Field required" });
    return undefined;
  }
  const d = parseDate(raw);
  if (!d) errors.push({ loc: ["query", name], detail: "Input should be a valid date in the format YYYY-MM-DD" });
  return d;
}

function totals(ctx: RouteContext) {
  const metric = ctx.params.metric ?? "";
  if (!(METRICS as readonly string[]).includes(metric)) throw notFound("waap", "The resource is not found", ctx.requestId);
  const errors: FieldError[] = [];
  const clientIds: number[] = [];
  ctx.query.getAll("client_ids").forEach((raw, i) => {
    for (const part of raw.split(",")) {
      if (/^\d+$/.test(part.trim())) clientIds.push(Number(part.trim()));
      else errors.push({ loc: ["query", "client_ids", i], detail: "Input should be a valid integer, unable to parse string as an integer" });
    }
  });
  const from = dateField(ctx, errors, "from");
  const to = dateField(ctx, errors, "to");
  const limit = intField(ctx, errors, "limit", 100, 0, 100);
  const offset = intField(ctx, errors, "offset", 0, 0, 100000);
  if (errors.length > 0 || from === undefined || to === undefined) {
    throw problem(422, "request-validation-failed", "Request validation error.", "One or more fields have validation errors.", errors);
  }
  if (to <= from) {
    throw problem(400, "http-bad-request", "Bad Request", `'to' (${to}) must be later than 'from' (${from})`);
  }
  const billing = ctx.sim.store.state.billing;
  const clients = clientIds.length ? clientIds.map(String) : Object.keys(billing);
  const byDate = new Map<string, number>();
  for (const c of clients) {
    const rows = billing[c]?.[metric] ?? {};
    for (const [date, amount] of Object.entries(rows)) {
      if (date >= from && date < to) byDate.set(date, (byDate.get(date) ?? 0) + amount);
    }
  }
  const all = [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, amount]) => ({ date, amount }));
  const { answers } = ctx.sim;
  const results = all.slice(offset, offset + limit).map((row) => answers.object(row));
  return ok(answers.object({ limit, offset, count: results.length, results }));
}

function ping(ctx: RouteContext) {
  return ok(ctx.sim.answers.object({ message: "pong" }));
}

/** `handler` at the paths of `form`, or the 404 of an unknown path when the simulator serves only the other set. */
function servedAs(form: "public" | "spec", handler: (ctx: RouteContext) => RouteResult): (ctx: RouteContext) => RouteResult {
  return (ctx) => {
    const served = ctx.sim.resellerPaths;
    if (served !== "both" && served !== form) throw notFound("waap", `Path ${ctx.path} could not be found`, ctx.requestId);
    return handler(ctx);
  };
}

/** WAAP reseller routes: the spec's paths, then the public OpenAPI's. */
export const resellerRoutes: Route[] = [
  { method: "GET", pattern: /^\/waap\/reseller\/v1\/prebilling\/total\/(?<metric>[^/]+)\/?$/, handler: servedAs("spec", totals) },
  { method: "GET", pattern: /^\/waap\/reseller\/ping\/?$/, handler: servedAs("spec", ping) },
  { method: "GET", pattern: /^\/waap\/v1\/prebilling\/total\/(?<metric>[^/]+)\/?$/, handler: servedAs("public", totals) },
  { method: "GET", pattern: /^\/waap\/ping\/?$/, handler: servedAs("public", ping) },
];
