/**
 * Where the WAAP reseller endpoints are called. By default (`auto`) the public OpenAPI's and the
 * Python SDK's `/waap/v1/prebilling/total/{metric}` and `/waap/ping`; where the platform answers
 * 404 there, the API reference's `/waap/reseller/...` paths, found out by one request once per
 * base URL and then remembered (also across clients: each lookup makes its own). The client
 * option `resellerPaths` (the provider: config `cloudplatform:resellerPaths` or
 * CLOUDPLATFORM_RESELLER_PATHS) pins `public` or `spec`; any other value fails at creation,
 * naming the allowed values and where to set it. Simulators serving only one set
 * (`resellerPaths` option) play each platform.
 */
import { ConfigurationError, createClient, NotFoundError } from "../../../provider/api";
import { forgetResellerPaths, learnedResellerPaths } from "../../../provider/api/waap/resellerPaths";
import { getResellerPingLookup, getResellerTotalsLookup } from "../../../provider/lookups/reseller";
import { runLookup } from "../../../provider/lookups/runtime";
import { clientFromSettings, resolveConnectionSettings } from "../../../provider/settings";
import { startSimulator, type ResellerPathsServed } from "../../../simulator";
import { admin, newKey } from "./helpers";
import { envFor } from "../lookups/helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
const sims: Partial<Record<ResellerPathsServed, Sim>> = {};
beforeAll(async () => {
  for (const served of ["both", "public", "spec"] as const) sims[served] = await startSimulator({ apiKey: newKey(), resellerPaths: served });
});
afterAll(async () => {
  for (const sim of Object.values(sims)) await sim.close();
});
beforeEach(() => {
  forgetResellerPaths();
  for (const sim of Object.values(sims)) sim.reset();
});

function sim(served: ResellerPathsServed): Sim {
  const s = sims[served];
  if (!s) throw new Error("simulators start in beforeAll");
  return s;
}

const QUERY = { from: "2026-09-01", to: "2026-09-03" };
const PUBLIC = ["/waap/v1/prebilling/total/domains", "/waap/ping"];
const SPEC = ["/waap/reseller/v1/prebilling/total/domains", "/waap/reseller/ping"];

/** Every path requested (in order, repeats kept) while `run` ran. */
async function pathsDuring(s: Sim, run: () => Promise<unknown>): Promise<string[]> {
  const before = s.requests().length;
  await run();
  return s.requests().slice(before).map((r) => r.path);
}

function totalsAndPing(client: ReturnType<typeof createClient>) {
  return async () => {
    expect((await client.waap.reseller.totals("domains", QUERY)).results.length).toBeGreaterThan(0);
    expect(await client.waap.reseller.ping()).toEqual({ message: "pong" });
  };
}

const clientOf = (s: Sim, options: { resellerPaths?: string } = {}) => createClient({ baseUrl: s.url, apiKey: s.apiKey, ...options });

test("by default, a platform serving only the public paths is answered there, with no other request", async () => {
  expect(await pathsDuring(sim("public"), totalsAndPing(clientOf(sim("public"))))).toEqual(PUBLIC);
  expect(learnedResellerPaths(sim("public").url)).toBe("public");
});

test("by default, a platform serving only the spec's paths costs one 404 once, then the spec's paths are used", async () => {
  const s = sim("spec");
  const paths = await pathsDuring(s, async () => {
    await totalsAndPing(clientOf(s))();
    // A second client of the same base URL (each lookup makes its own) does not ask again.
    await totalsAndPing(clientOf(s))();
  });
  expect(paths).toEqual([PUBLIC[0], SPEC[0], SPEC[1], SPEC[0], SPEC[1]]);
  expect(s.requests().filter((r) => r.path === PUBLIC[0]).map((r) => r.status)).toEqual([404]);
});

test("calls made at the same time before anything is known probe once; the others wait for the answer", async () => {
  const s = sim("spec");
  const client = clientOf(s);
  const paths = await pathsDuring(s, () => Promise.all([client.waap.reseller.ping(), client.waap.reseller.totals("domains", QUERY), client.waap.reseller.ping()]));
  expect(paths.filter((p) => PUBLIC.includes(p))).toHaveLength(1);
  expect(paths).toHaveLength(4);
});

test("the lookups learn once per provider process: two getResellerTotals and a getResellerPing against a spec-only platform", async () => {
  const s = sim("spec");
  const paths = await pathsDuring(s, async () => {
    const args = { metric: "domains" as const, clientIds: [101], ...QUERY };
    const first = await runLookup(getResellerTotalsLookup, args, envFor(s));
    expect(first.rows.length).toBe(2);
    expect((await runLookup(getResellerTotalsLookup, { ...args, to: "2026-09-04" }, envFor(s))).rows.length).toBe(3);
    expect(await runLookup(getResellerPingLookup, {}, envFor(s))).toEqual({ message: "pong", healthy: true });
  });
  expect(paths).toEqual([PUBLIC[0], SPEC[0], SPEC[0], SPEC[1]]);
});

test("a platform serving both sets is answered at the public ones", async () => {
  expect(await pathsDuring(sim("both"), totalsAndPing(clientOf(sim("both"))))).toEqual(PUBLIC);
});

test("a validation answer at the public path (422) proves it served: no fallback, and it is remembered", async () => {
  const s = sim("public");
  const client = clientOf(s);
  const err = await client.waap.reseller.totals("domains", { from: "2026-09-01", to: "nope" }).catch((e: unknown) => e);
  expect(err).toMatchObject({ status: 422 });
  expect(learnedResellerPaths(s.url)).toBe("public");
  expect(s.requests().map((r) => r.path)).toEqual([PUBLIC[0]]);
});

test("when neither set is served, the public path's 404 is thrown and nothing is remembered", async () => {
  const s = sim("spec");
  await admin(s.url, "POST", "/unserved", { pathPrefix: "/waap/reseller/" });
  const client = clientOf(s);
  const err = await client.waap.reseller.ping().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(NotFoundError);
  expect((err as Error).message).toContain("GET /waap/ping failed (404");
  expect(learnedResellerPaths(s.url)).toBeUndefined();
  await client.waap.reseller.ping().catch(() => undefined);
  expect(s.requests().map((r) => r.path)).toEqual(["/waap/ping", "/waap/reseller/ping", "/waap/ping", "/waap/reseller/ping"]);
});

test("a metric outside the enum (its 404 may be its own) is sent to the public path and decides nothing", async () => {
  const s = sim("both");
  const err = await clientOf(s).waap.reseller.totals("bananas", QUERY).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(NotFoundError);
  expect(s.requests().map((r) => r.path)).toEqual(["/waap/v1/prebilling/total/bananas"]);
  expect(learnedResellerPaths(s.url)).toBeUndefined();
});

test.each([
  { pin: "public", served: "spec" as const, paths: PUBLIC, fails: true },
  { pin: "spec", served: "public" as const, paths: SPEC, fails: true },
  { pin: "spec", served: "spec" as const, paths: SPEC, fails: false },
  { pin: "public", served: "public" as const, paths: PUBLIC, fails: false },
])("resellerPaths $pin against a platform serving $served calls $paths only", async ({ pin, served, paths, fails }) => {
  const client = clientOf(sim(served), { resellerPaths: pin });
  const seen = await pathsDuring(sim(served), async () => {
    const totals = await client.waap.reseller.totals("domains", QUERY).catch((e: unknown) => e);
    const ping = await client.waap.reseller.ping().catch((e: unknown) => e);
    expect([totals instanceof NotFoundError, ping instanceof NotFoundError]).toEqual([fails, fails]);
  });
  expect(seen).toEqual(paths);
  expect(learnedResellerPaths(sim(served).url)).toBeUndefined();
});

test("the provider takes it from the config or CLOUDPLATFORM_RESELLER_PATHS, and names every value when it is wrong", async () => {
  const s = sim("both");
  const fromEnv = resolveConnectionSettings(() => undefined, { CLOUDPLATFORM_BASE_URL: s.url, CLOUDPLATFORM_API_KEY: s.apiKey, CLOUDPLATFORM_RESELLER_PATHS: "spec" });
  expect(await pathsDuring(s, totalsAndPing(clientFromSettings(fromEnv)))).toEqual(SPEC);
  const config: Record<string, string> = { "cloudplatform:baseUrl": s.url, "cloudplatform:apiKey": s.apiKey, "cloudplatform:resellerPaths": "v2" };
  const wrong = resolveConnectionSettings((k) => config[k], {});
  expect(() => clientFromSettings(wrong)).toThrow(ConfigurationError);
  expect(() => clientFromSettings(wrong)).toThrow(
    'resellerPaths must be one of auto, public, spec, got "v2": set the Pulumi config `cloudplatform:resellerPaths` or the environment variable CLOUDPLATFORM_RESELLER_PATHS.',
  );
  expect(() => createClient({ baseUrl: s.url, apiKey: s.apiKey, resellerPaths: "v2" })).toThrow("set the client option `resellerPaths`");
  expect(() => createClient({ baseUrl: s.url, apiKey: s.apiKey, resellerPaths: "auto" })).not.toThrow();
});
