/** DNS delegation status: fields, unknown zones, the rate limit and Retry-After. */
import { RunningSimulator } from "../../../simulator";
import { SlidingWindowLimiter } from "../../../simulator/routes/dns";
import { call, start } from "./helpers";

const path = (name: string) => `/dns/v2/analyze/${name}/delegation-status`;
let fakeNow = Date.parse("2026-11-01T00:00:00Z");
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start({ now: () => fakeNow, delegationRateLimit: { requests: 3, perSeconds: 2 } });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  fakeNow += 10000;
});

test("example.com is delegated with the spec's field names", async () => {
  const r = await call(sim.url, "GET", path("example.com"));
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ service_authorized_count: 2, non_service_authorized_count: 0, is_whitelabel_delegation: false, zone_exists: true });
  expect(r.body.authoritative_name_servers[0]).toEqual({ name: expect.any(String), ipv4Addresses: expect.any(Array), ipv6Addresses: expect.any(Array) });
  expect(r.body.gcore_authorized_count).toBeUndefined();
});

test("not-delegated.example and unknown names have zone_exists false", async () => {
  const nd = await call(sim.url, "GET", path("not-delegated.example"));
  expect(nd.body).toMatchObject({ zone_exists: false, service_authorized_count: 0, non_service_authorized_count: 2 });
  const other = await call(sim.url, "GET", path("whatever.test"));
  expect(other.body).toEqual({ authoritative_name_servers: [], service_authorized_count: 0, non_service_authorized_count: 0, is_whitelabel_delegation: false, zone_exists: false });
});

test("invalid zone name is 400 {error}", async () => {
  const r = await call(sim.url, "GET", path("bad%20name!"));
  expect(r.status).toBe(400);
  expect(typeof r.body.error).toBe("string");
});

test("past the rate: 429 with Retry-After seconds and {error}; allowed again after the window", async () => {
  for (let i = 0; i < 3; i++) expect((await call(sim.url, "GET", path("example.com"))).status).toBe(200);
  const limited = await call(sim.url, "GET", path("example.com"));
  expect(limited.status).toBe(429);
  expect(limited.headers.get("retry-after")).toBe("2");
  expect(typeof limited.body.error).toBe("string");
  fakeNow += 1000;
  const still = await call(sim.url, "GET", path("example.com"));
  expect(still.status).toBe(429);
  expect(still.headers.get("retry-after")).toBe("1");
  fakeNow += 1000;
  expect((await call(sim.url, "GET", path("example.com"))).status).toBe(200);
  // other endpoints are not limited
  for (let i = 0; i < 5; i++) expect((await call(sim.url, "GET", "/iam/clients/me")).status).toBe(200);
});

test("SlidingWindowLimiter counts only allowed requests", () => {
  let t = 0;
  const l = new SlidingWindowLimiter(2, 1, () => t);
  expect(l.take()).toBe(0);
  expect(l.take()).toBe(0);
  expect(l.take()).toBe(1);
  t = 999;
  expect(l.take()).toBe(1);
  t = 1000;
  expect(l.take()).toBe(0);
});
