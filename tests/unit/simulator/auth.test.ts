/** Auth across products: missing, wrong, capitalisation, read-only writes; and generic errors. */
import { RunningSimulator } from "../../../simulator";
import { call, expectCloudError, KEY, RO_KEY, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

describe("auth", () => {
  test("valid key with lowercase and capitalised scheme word", async () => {
    for (const word of ["apikey", "APIKey", "APIKEY"]) {
      const r = await call(sim.url, "GET", "/iam/clients/me", { auth: `${word} ${KEY}` });
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(7350925);
    }
  });

  test("missing header: 401 in each product's shape", async () => {
    const cloud = await call(sim.url, "GET", "/cloud/v1/projects", { key: null });
    expectCloudError(cloud, 401, "not_authenticated");
    const iam = await call(sim.url, "GET", "/iam/clients/me", { key: null });
    expectCloudError(iam, 401, "not_authenticated");
    const storage = await call(sim.url, "GET", "/storage/notifications/v1/events", { key: null });
    expect(storage.status).toBe(401);
    expect(typeof storage.body.error).toBe("string");
    const waap = await call(sim.url, "GET", "/waap/reseller/ping", { key: null });
    expect(waap.status).toBe(401);
    expect(waap.body).toEqual({ detail: "Auth token is missing or invalid" });
    expect(waap.headers.get("content-type")).toContain("application/problem+json");
    const dns = await call(sim.url, "GET", "/dns/v2/analyze/example.com/delegation-status", { key: null });
    expect(dns.status).toBe(401);
    expect(typeof dns.body.error).toBe("string");
    const streaming = await call(sim.url, "GET", "/streaming/ai/tasks", { key: null });
    expect(streaming.status).toBe(401);
    expect(typeof streaming.body.error).toBe("string");
  });

  test("wrong token, Bearer scheme, two spaces: 401 token_not_valid", async () => {
    for (const auth of ["apikey nope", `Bearer ${KEY}`, `apikey  ${KEY}`, KEY]) {
      const r = await call(sim.url, "GET", "/cloud/v1/regions", { auth });
      expectCloudError(r, 401, "token_not_valid");
    }
    const waap = await call(sim.url, "GET", "/waap/reseller/ping", { key: "nope" });
    expect(waap.status).toBe(401);
    expect(waap.body.detail).toBe("Auth token is missing or invalid");
  });

  test("read-only key reads but gets 403 on writes, in each product's shape", async () => {
    const read = await call(sim.url, "GET", "/cloud/v1/projects", { key: RO_KEY });
    expect(read.status).toBe(200);
    const up = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { key: RO_KEY, body: { version: "v1.31.2" } });
    expectCloudError(up, 403, "ForbiddenError");
    expect(up.body.message).toBe("Permission denied");
    for (const method of ["POST", "PUT", "DELETE"]) {
      const r = await call(sim.url, method, "/storage/notifications/v1/event", { key: RO_KEY, body: { name: "reaching_used_space", bytes: 1 } });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: "Permission denied" });
    }
    const waap = await call(sim.url, "POST", "/waap/reseller/ping", { key: RO_KEY });
    expect(waap.status).toBe(403);
    expect(waap.body).toEqual({ detail: "Permission denied" });
    // nothing was written
    const events = await call(sim.url, "GET", "/storage/notifications/v1/events");
    expect(events.body.reaching_used_space).toEqual([]);
    const cluster = await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster");
    expect(cluster.body.task_id).toBeNull();
  });
});

describe("generic errors", () => {
  test("every response carries X-Request-Id, unique per request", async () => {
    const a = await call(sim.url, "GET", "/waap/reseller/ping");
    const b = await call(sim.url, "GET", "/waap/reseller/ping");
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  test("unknown paths are 404 in the product's shape", async () => {
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/nothing-here"), 404, "NotFoundError");
    const waap = await call(sim.url, "GET", "/waap/reseller/v1/nothing");
    expect(waap.status).toBe(404);
    expect(waap.body).toEqual({ type: "http-not-found", title: "Not Found", status: 404, detail: "The resource is not found" });
    const storage = await call(sim.url, "GET", "/storage/notifications/v1/nothing");
    expect(storage.status).toBe(404);
    expect(typeof storage.body.error).toBe("string");
  });

  test("wrong method is 405; malformed JSON is 400", async () => {
    expectCloudError(await call(sim.url, "DELETE", "/cloud/v1/projects"), 405, "HTTPError");
    const bad = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { rawBody: "{nope" });
    expectCloudError(bad, 400, "ValidationError");
    const storage = await call(sim.url, "POST", "/storage/notifications/v1/event", { rawBody: "[" });
    expect(storage.status).toBe(400);
    expect(typeof storage.body.error).toBe("string");
  });
});
