/** WAAP reseller: billing totals (paging, filters, 400/404/422 problem+json) and ping. */
import { RunningSimulator } from "../../../simulator";
import { call, start } from "./helpers";

const TOTAL = "/waap/reseller/v1/prebilling/total";
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const q = (metric: string, query: string) => call(sim.url, "GET", `${TOTAL}/${metric}?${query}`);

test("ping answers pong", async () => {
  const r = await call(sim.url, "GET", "/waap/reseller/ping");
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ message: "pong" });
});

describe("totals", () => {
  test.each(["domains", "volume", "requests", "requests_clean"])("%s: from inclusive, to exclusive, daily rows", async (metric) => {
    const r = await q(metric, "from=2026-09-01&to=2026-09-08");
    expect(r.status).toBe(200);
    expect(r.body.limit).toBe(100);
    expect(r.body.offset).toBe(0);
    expect(r.body.results.map((x: { date: string }) => x.date)).toEqual([
      "2026-09-01", "2026-09-02", "2026-09-03", "2026-09-04", "2026-09-05", "2026-09-06", "2026-09-07",
    ]);
    expect(r.body.count).toBe(7);
    for (const row of r.body.results) expect(Number.isInteger(row.amount)).toBe(true);
  });

  test("client_ids (repeatable) filters and amounts add up across clients", async () => {
    const base = "from=2026-10-01&to=2026-10-02";
    const one = await q("requests", `${base}&client_ids=101`);
    const two = await q("requests", `${base}&client_ids=102`);
    const both = await q("requests", `${base}&client_ids=101&client_ids=102`);
    const all = await q("requests", base);
    const three = await q("requests", `${base}&client_ids=103`);
    expect(both.body.results[0].amount).toBe(one.body.results[0].amount + two.body.results[0].amount);
    expect(all.body.results[0].amount).toBe(both.body.results[0].amount + three.body.results[0].amount);
    const unknown = await q("requests", `${base}&client_ids=999`);
    expect(unknown.body).toEqual({ limit: 100, offset: 0, count: 0, results: [] });
  });

  test("limit/offset paging; limit 0; offset past the end; the seeded range ends on 2026-11-30", async () => {
    const range = "from=2026-09-01&to=2026-12-01";
    const full = await q("domains", range);
    expect(full.body.results).toHaveLength(91);
    const page = await q("domains", `${range}&limit=10&offset=85`);
    expect(page.body).toMatchObject({ limit: 10, offset: 85, count: 6 });
    expect(page.body.results[5].date).toBe("2026-11-30");
    const zero = await q("domains", `${range}&limit=0`);
    expect(zero.body).toEqual({ limit: 0, offset: 0, count: 0, results: [] });
    const past = await q("domains", `${range}&offset=100000`);
    expect(past.body).toEqual({ limit: 100, offset: 100000, count: 0, results: [] });
    const dec = await q("domains", "from=2026-12-01&to=2027-01-01");
    expect(dec.body.results).toEqual([]);
  });

  test("unknown metric is 404 problem+json", async () => {
    const r = await q("bandwidth", "from=2026-09-01&to=2026-09-02");
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.body).toEqual({ type: "http-not-found", title: "Not Found", status: 404, detail: "The resource is not found" });
  });

  test("missing from/to is 422 Field required with loc [query, field]", async () => {
    const r = await q("domains", "");
    expect(r.status).toBe(422);
    expect(r.headers.get("content-type")).toContain("application/problem+json");
    expect(r.body).toEqual({
      type: "request-validation-failed",
      title: "Request validation error.",
      status: 422,
      detail: "One or more fields have validation errors.",
      errors: [
        { loc: ["query", "from"], detail: "Field required" },
        { loc: ["query", "to"], detail: "Field required" },
      ],
    });
  });

  test.each([
    ["limit=101", "limit"],
    ["limit=-1", "limit"],
    ["limit=ten", "limit"],
    ["offset=100001", "offset"],
    ["offset=-1", "offset"],
    ["offset=1.5", "offset"],
    ["client_ids=abc", "client_ids"],
  ])("%s is 422 on %s", async (extra, field) => {
    const r = await q("domains", `from=2026-09-01&to=2026-09-02&${extra}`);
    expect(r.status).toBe(422);
    expect(r.body.type).toBe("request-validation-failed");
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0].loc.slice(0, 2)).toEqual(["query", field]);
    expect(typeof r.body.errors[0].detail).toBe("string");
  });

  test("malformed dates are 422; to <= from is 400 http-bad-request", async () => {
    const bad = await q("domains", "from=2026-13-01&to=yesterday");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { loc: string[] }) => e.loc[1])).toEqual(["from", "to"]);
    for (const range of ["from=2026-09-02&to=2026-09-01", "from=2026-09-02&to=2026-09-02"]) {
      const r = await q("domains", range);
      expect(r.status).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
      expect(r.body).toMatchObject({ type: "http-bad-request", title: "Bad Request", status: 400 });
      expect(typeof r.body.detail).toBe("string");
    }
  });
});

describe("the two sets of paths (option resellerPaths)", () => {
  const PATHS = {
    public: ["/waap/v1/prebilling/total/domains?from=2026-09-01&to=2026-09-03", "/waap/ping"],
    spec: ["/waap/reseller/v1/prebilling/total/domains?from=2026-09-01&to=2026-09-03", "/waap/reseller/ping"],
  };
  const statuses = async (s: RunningSimulator, paths: string[]) => Promise.all(paths.map(async (p) => (await call(s.url, "GET", p)).status));

  test("by default both are served, with the same answers", async () => {
    expect(await statuses(sim, [...PATHS.public, ...PATHS.spec])).toEqual([200, 200, 200, 200]);
    const [pub, spec] = await Promise.all([call(sim.url, "GET", PATHS.public[0]!), call(sim.url, "GET", PATHS.spec[0]!)]);
    expect(pub.body).toEqual(spec.body);
  });

  test.each([
    { served: "public" as const, other: "spec" as const },
    { served: "spec" as const, other: "public" as const },
  ])("resellerPaths $served serves that set; the other answers 404 as an unknown path does", async ({ served, other }) => {
    const only = await start({ resellerPaths: served });
    try {
      expect(await statuses(only, PATHS[served])).toEqual([200, 200]);
      expect(await statuses(only, PATHS[other])).toEqual([404, 404]);
      const missing = await call(only.url, "GET", PATHS[other][1]!);
      expect(missing.body).toEqual((await call(only.url, "GET", "/waap/nothing-here")).body);
    } finally {
      await only.close();
    }
  });

  test("an unknown value is refused naming the allowed ones", async () => {
    await expect(start({ resellerPaths: "none" as never })).rejects.toThrow('resellerPaths option must be one of: both, public, spec (got "none")');
  });
});
