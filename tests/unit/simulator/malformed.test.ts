/**
 * Malformed-answer faults (`POST /__admin/malformed`): each mode spoils the real handler's
 * answer on one exact path and method, a number of times or at a seeded rate, after the
 * handler acted; the request log says which.
 */
import * as http from "http";
import { MALFORMED_MODES, RunningSimulator } from "../../../simulator";
import { call, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());
beforeEach(async () => {
  await call(sim.url, "POST", "/__admin/reset", { key: null });
});

const admin = (method: string, path: string, body?: unknown) => call(sim.url, method, `/__admin${path}`, { key: null, ...(body !== undefined ? { body } : {}) });

const EVENTS = "/storage/notifications/v1/events";
const EVENT = "/storage/notifications/v1/event";
const CLUSTER = "/cloud/v2/k8s/clusters/1/76/prod-cluster";

/** A raw answer: status, content type and the body text exactly as sent. */
async function raw(method: string, path: string, body?: unknown): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { Authorization: "apikey test-key", ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

async function rule(body: Record<string, unknown>) {
  const r = await admin("POST", "/malformed", body);
  expect(r.status).toBe(200);
  return r.body.rule;
}

const lastLog = () => sim.requests().at(-1);

describe("each mode on one exact path and method", () => {
  test("html200: a 200 sign-in page instead of the JSON", async () => {
    await rule({ mode: "html200", path: EVENTS, method: "GET" });
    const r = await raw("GET", EVENTS);
    expect(r.status).toBe(200);
    expect(r.type).toContain("text/html");
    expect(r.text).toContain("<title>Sign in</title>");
    expect(lastLog()).toMatchObject({ path: EVENTS, status: 200, fault: "html200" });
    expect(lastLog()?.sentStatus).toBeUndefined();
  });

  test("html502: nginx's 502 page; the log keeps the handler's status and the one sent", async () => {
    await rule({ mode: "html502", path: CLUSTER, method: "GET" });
    const r = await raw("GET", CLUSTER);
    expect(r.status).toBe(502);
    expect(r.type).toContain("text/html");
    expect(r.text).toContain("502 Bad Gateway");
    expect(r.text).toContain("nginx");
    expect(lastLog()).toMatchObject({ status: 200, sentStatus: 502, fault: "html502" });
  });

  test("truncated: the first half of the real body, which is not JSON", async () => {
    const clean = await raw("GET", CLUSTER);
    await rule({ mode: "truncated", path: CLUSTER, method: "GET" });
    const r = await raw("GET", CLUSTER);
    expect(r.status).toBe(200);
    expect(r.type).toContain("application/json");
    expect(r.text.length).toBe(Math.floor(clean.text.length / 2));
    expect(clean.text.startsWith(r.text)).toBe(true);
    expect(() => JSON.parse(r.text)).toThrow();
  });

  test("nulls: the same keys and list lengths, every value null", async () => {
    await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "media", bytes: 5 } });
    const clean = JSON.parse((await raw("GET", EVENTS)).text);
    await rule({ mode: "nulls", path: EVENTS, method: "GET" });
    const spoilt = JSON.parse((await raw("GET", EVENTS)).text);
    expect(Object.keys(spoilt)).toEqual(Object.keys(clean));
    expect(spoilt.reaching_used_space).toEqual([{ uuid: null, storage_name: null, bytes: null }]);
    expect(spoilt.reaching_files_quantity).toEqual([]);
  });

  test("wrongShape: {\"weird\": 1} with the handler's status", async () => {
    await rule({ mode: "wrongShape", path: CLUSTER, method: "GET" });
    const r = await raw("GET", CLUSTER);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ weird: 1 });
  });

  test("emptyBody: the handler's status, a JSON content type and no body", async () => {
    await rule({ mode: "emptyBody", path: EVENTS, method: "GET" });
    const r = await raw("GET", EVENTS);
    expect(r.status).toBe(200);
    expect(r.type).toContain("application/json");
    expect(r.text).toBe("");
  });

  test("hugeBody: about hugeBytes of valid JSON wrapping the real answer, streamed", async () => {
    const clean = JSON.parse((await raw("GET", CLUSTER)).text);
    await rule({ mode: "hugeBody", path: CLUSTER, method: "GET", hugeBytes: 3 * 1024 * 1024 });
    const r = await raw("GET", CLUSTER);
    expect(r.status).toBe(200);
    expect(r.text.length).toBeGreaterThanOrEqual(3 * 1024 * 1024);
    const parsed = JSON.parse(r.text);
    expect(parsed.answer).toEqual(clean);
    expect(Object.keys(parsed)).toEqual(["padding", "answer"]);
  });

  test("hugeBody stops streaming when the client goes away (the simulator keeps answering)", async () => {
    await rule({ mode: "hugeBody", path: CLUSTER, method: "GET", hugeBytes: 512 * 1024 * 1024 });
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${sim.url}${CLUSTER}`, { headers: { Authorization: "apikey test-key" } }, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", reject);
    });
    expect((await raw("GET", "/iam/clients/me")).status).toBe(200);
  });

  test("slowBody: the full length announced, half the body sent, a stall, then the rest", async () => {
    const clean = (await raw("GET", CLUSTER)).text;
    await rule({ mode: "slowBody", path: CLUSTER, method: "GET", slowMs: 200 });
    const chunks = await new Promise<string[]>((resolve, reject) => {
      const got: string[] = [];
      http
        .get(`${sim.url}${CLUSTER}`, { headers: { Authorization: "apikey test-key" } }, (res) => {
          expect(res.headers["content-length"]).toBe(String(Buffer.byteLength(clean)));
          res.setEncoding("utf8");
          res.on("data", (c: string) => got.push(c));
          res.on("end", () => resolve(got));
        })
        .on("error", reject);
    });
    expect(chunks[0]).toBe(clean.slice(0, Math.floor(clean.length / 2)));
    expect(chunks.join("")).toBe(clean);
    expect(lastLog()).toMatchObject({ path: CLUSTER, fault: "slowBody", status: 200 });
  });
});

describe("matching, counting and the handler's effect", () => {
  test("the handler acts first: a POST answered with html502 still created the event", async () => {
    await rule({ mode: "html502", path: EVENT, method: "POST" });
    const r = await raw("POST", EVENT, { name: "reaching_used_space", storage_name: "media", bytes: 5 });
    expect(r.status).toBe(502);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ name: "reaching_used_space", bytes: 5 })]);
    expect(lastLog()).toMatchObject({ method: "POST", status: 200, sentStatus: 502, fault: "html502" });
  });

  test("a 204 answer spoilt becomes a 200 with the spoilt body", async () => {
    const made = (await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "media", bytes: 5 } })).body;
    await rule({ mode: "wrongShape", path: EVENT, method: "PUT" });
    const r = await raw("PUT", EVENT, { uuid: made.uuid, name: "reaching_used_space", bytes: 9 });
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"weird":1}');
    expect(sim.state().storageEvents[0]?.bytes).toBe(9);
    expect(lastLog()).toMatchObject({ status: 204, sentStatus: 200, fault: "wrongShape" });
  });

  test("only the exact path and method, only `times` times", async () => {
    await rule({ mode: "wrongShape", path: CLUSTER, method: "GET", times: 2 });
    expect((await raw("GET", `${CLUSTER}/upgrade_versions`)).text).not.toContain("weird");
    expect((await raw("GET", "/cloud/v2/k8s/clusters/1/76/demo-cluster")).text).not.toContain("weird");
    expect((await raw("POST", `${CLUSTER}/upgrade`, { version: "v9.9.9" })).text).not.toContain("weird");
    expect((await raw("GET", CLUSTER)).text).toBe('{"weird":1}');
    expect((await raw("GET", CLUSTER)).text).toBe('{"weird":1}');
    expect(JSON.parse((await raw("GET", CLUSTER)).text).name).toBe("prod-cluster");
    const rules = (await admin("GET", "/malformed")).body.malformed;
    expect(rules).toEqual([expect.objectContaining({ modes: ["wrongShape"], times: 0, applied: 2 })]);
    expect(sim.requests().filter((r) => r.fault).map((r) => r.path)).toEqual([CLUSTER, CLUSTER]);
  });

  test("pathPrefix reaches paths holding an id made at run time (a task's)", async () => {
    const started = await call(sim.url, "POST", `${CLUSTER}/upgrade`, { body: { version: "v1.31.2" } });
    const task = `/cloud/v1/tasks/${started.body.tasks[0]}`;
    await rule({ mode: "html200", pathPrefix: "/cloud/v1/tasks/", method: "GET", times: 1 });
    expect((await raw("GET", "/cloud/v1/tasks")).type).toContain("application/json"); // not under the prefix
    expect((await raw("GET", task)).type).toContain("text/html");
    expect((await raw("GET", task)).type).toContain("application/json"); // times: 1
    expect((await admin("POST", "/malformed", { mode: "nulls", pathPrefix: "tasks" })).body.error).toMatch(/pathPrefix must be a string starting with \//);
  });

  test("`after` lets that many matching requests pass first, then `times` counts", async () => {
    await rule({ mode: "wrongShape", path: CLUSTER, method: "GET", after: 2, times: 1 });
    const texts = [];
    for (let i = 0; i < 4; i++) texts.push((await raw("GET", CLUSTER)).text);
    expect(texts.map((t) => t === '{"weird":1}')).toEqual([false, false, true, false]);
    expect((await admin("GET", "/malformed")).body.malformed).toEqual([expect.objectContaining({ after: 0, times: 0, applied: 1 })]);
  });

  test("two rules at once: the first that matches spoils the answer", async () => {
    await rule({ mode: "emptyBody", path: EVENTS, method: "GET", times: 1 });
    await rule({ mode: "html200", path: CLUSTER, method: "GET", times: 1 });
    expect((await raw("GET", EVENTS)).text).toBe("");
    expect((await raw("GET", CLUSTER)).type).toContain("text/html");
    expect(sim.requests().map((r) => r.fault)).toEqual(["emptyBody", "html200"]);
  });

  test("a seeded rate over several modes replays exactly with the same seed, and differs with another", async () => {
    const run = async (seed: number) => {
      await admin("DELETE", "/malformed");
      await rule({ modes: [...MALFORMED_MODES.filter((m) => m !== "hugeBody" && m !== "slowBody")], rate: 0.5, seed });
      await admin("DELETE", "/requests");
      for (let i = 0; i < 30; i++) await raw("GET", "/cloud/v1/projects");
      return sim.requests().map((r) => r.fault ?? "-");
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    const spoilt = first.filter((f) => f !== "-");
    expect(spoilt.length).toBeGreaterThan(5);
    expect(spoilt.length).toBeLessThan(25);
    expect(new Set(spoilt).size).toBeGreaterThan(2);
    expect(await run(8)).not.toEqual(first);
  });

  test("the answer names the seed in use; a rule without one gets one", async () => {
    const r = await rule({ mode: "nulls", path: EVENTS, method: "GET" });
    expect(Number.isInteger(r.seed)).toBe(true);
    expect(r).toMatchObject({ modes: ["nulls"], path: EVENTS, method: "GET", applied: 0 });
  });

  test.each([
    [{ mode: "brokenJson" }, /mode .* must be one of html200, html502, truncated, nulls, wrongShape, emptyBody, hugeBody, slowBody/],
    [{ modes: [] }, /must be one of/],
    [{ mode: "nulls", path: "events" }, /path must be a string starting with \//],
    [{ mode: "nulls", method: "FETCH" }, /method must be one of GET, POST, PUT, PATCH, DELETE/],
    [{ mode: "nulls", times: -1 }, /times must be a non-negative integer/],
    [{ mode: "nulls", after: 1.5 }, /after must be a non-negative integer/],
    [{ mode: "nulls", rate: 2 }, /rate must be a number from 0 to 1/],
  ])("a bad rule %j is refused with 400 naming the field", async (body, message) => {
    const r = await admin("POST", "/malformed", body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect((await admin("GET", "/malformed")).body.malformed).toEqual([]);
  });

  test("DELETE /__admin/malformed, DELETE /__admin/faults and reset each remove the rules", async () => {
    for (const clear of [() => admin("DELETE", "/malformed"), () => admin("DELETE", "/faults"), () => admin("POST", "/reset")]) {
      await rule({ mode: "wrongShape", path: CLUSTER, method: "GET" });
      await clear();
      expect((await admin("GET", "/malformed")).body.malformed).toEqual([]);
      expect(JSON.parse((await raw("GET", CLUSTER)).text).name).toBe("prod-cluster");
    }
  });

  test("admin calls are never spoilt", async () => {
    await rule({ mode: "wrongShape" });
    expect((await admin("GET", "/state")).body.clusters).toHaveLength(10);
  });
});
