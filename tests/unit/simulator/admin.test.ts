/** Admin API: request log, reset, state, out-of-band changes, and every fault. */
import { RunningSimulator } from "../../../simulator";
import { call, expectCloudError, start } from "./helpers";

let fakeNow = Date.parse("2026-11-01T00:00:00Z");
let sim: RunningSimulator;
const logLines: string[] = [];
beforeAll(async () => {
  sim = await start({ now: () => fakeNow, log: (line) => logLines.push(line) });
});
afterAll(() => sim.close());
beforeEach(async () => {
  const r = await call(sim.url, "POST", "/__admin/reset", { key: null });
  expect(r.status).toBe(200);
});

const admin = (method: string, path: string, body?: unknown) => call(sim.url, method, `/__admin${path}`, { key: null, ...(body !== undefined ? { body } : {}) });

describe("request log", () => {
  test("records method, path, query object, status, request id; admin calls are not logged", async () => {
    const r = await call(sim.url, "GET", "/cloud/v1/tasks?state=NEW&state=RUNNING&limit=5");
    await call(sim.url, "GET", "/iam/clients/me", { key: "wrong" });
    await admin("GET", "/state");
    const log = await admin("GET", "/requests");
    expect(log.status).toBe(200);
    const entries = log.body.requests;
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ method: "GET", path: "/cloud/v1/tasks", query: { state: ["NEW", "RUNNING"], limit: "5" }, status: 200, requestId: r.headers.get("x-request-id") });
    expect(entries[1]).toMatchObject({ path: "/iam/clients/me", status: 401 });
    expect(entries[1].seq).toBeGreaterThan(entries[0].seq);
    expect(sim.requests()).toEqual(entries);
    expect(logLines.some((l) => l.includes("/iam/clients/me") && l.includes("401"))).toBe(true);
    expect(logLines.join("\n")).not.toContain("wrong");
    expect((await admin("DELETE", "/requests")).status).toBe(204);
    expect((await admin("GET", "/requests")).body.requests).toEqual([]);
  });

  test("keeps each request's body: parsed when JSON, as text otherwise, none when empty or over 16 KiB", async () => {
    const event = { name: "reaching_used_space", storage_name: "media", bytes: 5 };
    await call(sim.url, "POST", "/storage/notifications/v1/event?client_id=42", { body: event });
    await call(sim.url, "PUT", "/storage/notifications/v1/event", { rawBody: "not json" });
    await call(sim.url, "GET", "/storage/notifications/v1/events");
    await call(sim.url, "PUT", "/storage/notifications/v1/event", { rawBody: JSON.stringify({ name: "x".repeat(17 * 1024) }) });
    const entries = (await admin("GET", "/requests")).body.requests;
    expect(entries.map((e: { body?: unknown }) => e.body)).toEqual([event, "not json", undefined, undefined]);
    expect(entries[0].query).toEqual({ client_id: "42" });
    // A copy: changing what a test got does not change the log.
    const [first] = sim.requests();
    (first?.body as { bytes: number }).bytes = 6;
    expect(sim.requests()[0]?.body).toEqual(event);
  });
});

describe("state and out-of-band changes", () => {
  test("reset restores the seed", async () => {
    await call(sim.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_used_space", bytes: 1 } });
    await admin("PATCH", "/clusters/1/76/prod-cluster", { version: "v1.31.2" });
    await admin("POST", "/faults", { latencyMs: 1 });
    await admin("POST", "/reset");
    expect(sim.requests()).toEqual([]);
    expect((await admin("GET", "/faults")).body.faults).toEqual({});
    expect((await call(sim.url, "GET", "/storage/notifications/v1/events")).body.reaching_used_space).toEqual([]);
    expect((await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster")).body.version).toBe("v1.30.4");
  });

  test("GET /__admin/state shows the whole state", async () => {
    const r = await admin("GET", "/state");
    expect(r.body.clusters).toHaveLength(10);
    expect(r.body.projects).toHaveLength(4);
    expect(r.body.quotas["2"]).toEqual({ vm_count: 4 });
  });

  test("PATCH a cluster's version and status; upgrade_versions follows", async () => {
    const r = await admin("PATCH", "/clusters/1/76/prod-cluster", { version: "v1.31.2", status: "Provisioning" });
    expect(r.status).toBe(200);
    const c = await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster");
    expect(c.body).toMatchObject({ version: "v1.31.2", status: "Provisioning" });
    expect((await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade_versions")).body.results).toEqual([{ version: "v1.32.1" }]);
    expect((await admin("PATCH", "/clusters/1/76/prod-cluster", { version: "1.2" })).status).toBe(400);
    expect((await admin("PATCH", "/clusters/1/76/nope", { version: "v1.31.2" })).status).toBe(404);
  });

  test("DELETE and PATCH an event out of band", async () => {
    const a = await call(sim.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_used_space", storage_name: "s", bytes: 1 } });
    const b = await call(sim.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_files_quantity", storage_name: "s", count: 1 } });
    expect((await admin("PATCH", `/events/${b.body.uuid}`, { count: 77 })).status).toBe(200);
    expect((await admin("DELETE", `/events/${a.body.uuid}`)).status).toBe(204);
    const list = await call(sim.url, "GET", "/storage/notifications/v1/events");
    expect(list.body.reaching_used_space).toEqual([]);
    expect(list.body.reaching_files_quantity[0].count).toBe(77);
    expect((await admin("DELETE", `/events/${a.body.uuid}`)).status).toBe(404);
  });

  test("fail-next makes the next task of that type end in ERROR with that text, once", async () => {
    expect((await admin("POST", "/tasks/fail-next", { task_type: "upgrade_k8s_cluster", error: "node drain timed out" })).status).toBe(200);
    const up = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { body: { version: "v1.31.2" } });
    fakeNow += 31000;
    const t = await call(sim.url, "GET", `/cloud/v1/tasks/${up.body.tasks[0]}`);
    expect(t.body).toMatchObject({ state: "ERROR", error: "node drain timed out", created_resources: null });
    const c = await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster");
    expect(c.body).toMatchObject({ version: "v1.30.4", task_id: null });
    const again = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { body: { version: "v1.31.2" } });
    const t2 = await call(sim.url, "POST", `/__admin/tasks/${again.body.tasks[0]}/finish`, { key: null });
    expect(t2.body.state).toBe("FINISHED");
    expect((await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster")).body.version).toBe("v1.31.2");
  });

  test("finish ends a task now; unknown task is 404", async () => {
    const up = await call(sim.url, "POST", "/cloud/v2/k8s/clusters/1/76/demo-cluster/upgrade", { body: { version: "v1.31.2" } });
    const id = up.body.tasks[0];
    expect((await call(sim.url, "GET", `/cloud/v1/tasks/${id}`)).body.state).toBe("NEW");
    const f = await admin("POST", `/tasks/${id}/finish`);
    expect(f.body.state).toBe("FINISHED");
    expect((await call(sim.url, "GET", "/cloud/v2/k8s/clusters/1/76/demo-cluster")).body).toMatchObject({ version: "v1.31.2", task_id: null });
    expect((await admin("POST", "/tasks/nope/finish")).status).toBe(404);
  });

  test("unknown admin route is 404 {error}; bad body is 400", async () => {
    expect((await admin("GET", "/nothing")).status).toBe(404);
    expect((await admin("POST", "/faults", { errorRate: 2 })).status).toBe(400);
    expect((await admin("PUT", "/quotas/1", { vm_count: -1 })).status).toBe(400);
  });
});

describe("faults", () => {
  test("errorRate 1.0 gives 503 in the product's shape; DELETE clears it", async () => {
    expect((await admin("POST", "/faults", { errorRate: 1 })).status).toBe(200);
    expectCloudError(await call(sim.url, "GET", "/cloud/v1/projects"), 503, "ServiceUnavailable");
    const waap = await call(sim.url, "GET", "/waap/reseller/ping");
    expect(waap.status).toBe(503);
    expect(waap.body).toMatchObject({ status: 503, title: "Service Unavailable" });
    const storage = await call(sim.url, "GET", "/storage/notifications/v1/events");
    expect(storage.status).toBe(503);
    expect(typeof storage.body.error).toBe("string");
    expect((await admin("GET", "/requests")).body.requests.every((e: { status: number; fault: string }) => e.status === 503 && e.fault === "503")).toBe(true);
    expect((await admin("DELETE", "/faults")).status).toBe(204);
    expect((await call(sim.url, "GET", "/cloud/v1/projects")).status).toBe(200);
  });

  test("pathPrefix limits faults to matching paths", async () => {
    await admin("POST", "/faults", { errorRate: 1, pathPrefix: "/dns" });
    expect((await call(sim.url, "GET", "/dns/v2/analyze/example.com/delegation-status")).status).toBe(503);
    expect((await call(sim.url, "GET", "/iam/clients/me")).status).toBe(200);
  });

  test("path and method match exactly: /v1/event faults leave /v1/events and other methods alone", async () => {
    await admin("POST", "/faults", { errorRate: 1, path: "/storage/notifications/v1/event", method: "post" });
    expect((await admin("GET", "/faults")).body.faults).toMatchObject({ path: "/storage/notifications/v1/event", method: "POST" });
    const body = { name: "reaching_used_space", storage_name: "s", bytes: 5 };
    expect((await call(sim.url, "POST", "/storage/notifications/v1/event", { body })).status).toBe(503);
    expect((await call(sim.url, "GET", "/storage/notifications/v1/events")).status).toBe(200);
    expect((await call(sim.url, "PUT", "/storage/notifications/v1/event", { body })).status).not.toBe(503);
    expect((await admin("POST", "/faults", { errorRate: 1, method: "FETCH" })).body.error).toMatch(/method must be one of GET, POST/);
    expect((await admin("POST", "/faults", { errorRate: 1, path: "storage" })).body.error).toMatch(/path must be a string starting with \//);
  });

  test("times limits the faults to the first matching requests", async () => {
    await admin("POST", "/faults", { errorRate: 1, path: "/iam/clients/me", times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sim.url, "GET", "/iam/clients/me")).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect((await admin("GET", "/faults")).body.faults.times).toBe(0);
  });

  test("a fault seed replays the same 503s and resets, whatever other requests interleave", async () => {
    const paths = ["/cloud/v1/projects", "/cloud/v1/regions", "/iam/clients/me"];
    const run = async (seed: number, order: string[]) => {
      const set = await admin("POST", "/faults", { errorRate: 0.4, resetRate: 0.2, seed });
      expect(set.body.faults.seed).toBe(seed);
      const seen: Record<string, string[]> = {};
      for (let i = 0; i < 12; i++) {
        for (const p of order) {
          const status = await call(sim.url, "GET", p).then((r) => String(r.status), () => "reset");
          (seen[p] ??= []).push(status);
        }
      }
      return seen;
    };
    const first = await run(1234, paths);
    expect(await run(1234, [...paths].reverse())).toEqual(first);
    expect(await run(987, paths)).not.toEqual(first);
    const outcomes = new Set(Object.values(first).flat());
    expect([...outcomes].sort()).toEqual(["200", "503", "reset"]);
  });

  test("without a seed one is chosen and reported; the CLI's faultSeed is the default", async () => {
    expect((await admin("POST", "/faults", { errorRate: 0.5 })).body.faults.seed).toEqual(expect.any(Number));
    const seeded = await start({ faultSeed: 77 });
    try {
      const r = await call(seeded.url, "POST", "/__admin/faults", { key: null, body: { errorRate: 0.5 } });
      expect(r.body.faults.seed).toBe(77);
    } finally {
      await seeded.close();
    }
  });

  test("a request held by latency is reported in flight and held until it is answered", async () => {
    await admin("POST", "/faults", { latencyMs: 400, path: "/iam/clients/me" });
    const pending = call(sim.url, "GET", "/iam/clients/me");
    let inFlight: { path: string; held: boolean }[] = [];
    for (let i = 0; i < 200 && inFlight.length === 0; i++) {
      inFlight = (await admin("GET", "/requests")).body.inFlight;
    }
    expect(inFlight).toEqual([expect.objectContaining({ method: "GET", path: "/iam/clients/me", held: true })]);
    expect((await admin("GET", "/requests")).body.requests).toEqual([]);
    expect((await pending).status).toBe(200);
    const after = (await admin("GET", "/requests")).body;
    expect(after.inFlight).toEqual([]);
    expect(after.requests).toEqual([expect.objectContaining({ path: "/iam/clients/me", fault: "latency" })]);
  });

  test("resetRate 1.0 destroys the socket; the request is logged as a reset", async () => {
    await admin("POST", "/faults", { resetRate: 1 });
    await expect(call(sim.url, "GET", "/cloud/v1/projects")).rejects.toThrow();
    const log = (await admin("GET", "/requests")).body.requests;
    expect(log[0]).toMatchObject({ path: "/cloud/v1/projects", status: 0, fault: "reset" });
  });

  test("resetRate with afterHandling: the write happened although the client saw a reset", async () => {
    await admin("POST", "/faults", { resetRate: 1, afterHandling: true });
    await expect(
      call(sim.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_used_space", storage_name: "ambiguous", bytes: 5 } }),
    ).rejects.toThrow();
    // reads are reset before handling
    await expect(call(sim.url, "GET", "/storage/notifications/v1/events")).rejects.toThrow();
    await admin("DELETE", "/faults");
    const list = await call(sim.url, "GET", "/storage/notifications/v1/events");
    expect(list.body.reaching_used_space).toEqual([expect.objectContaining({ storage_name: "ambiguous", bytes: 5 })]);
    const log = (await admin("GET", "/requests")).body.requests;
    expect(log[0]).toMatchObject({ method: "POST", status: 200, fault: "reset" });
  });

  test("latencyMs delays responses (logged as a latency fault) and they still succeed", async () => {
    await admin("POST", "/faults", { latencyMs: 30 });
    const r = await call(sim.url, "GET", "/iam/clients/me");
    expect(r.status).toBe(200);
    expect((await admin("GET", "/faults")).body.faults).toEqual({ latencyMs: 30, seed: expect.any(Number) });
    expect((await admin("GET", "/requests")).body.requests[0]).toMatchObject({ status: 200, fault: "latency" });
  });

  test("burst429 answers count 429s with Retry-After, then normal responses", async () => {
    await admin("POST", "/faults", { burst429: { count: 2, retryAfterSeconds: 3 } });
    const a = await call(sim.url, "GET", "/cloud/v1/regions");
    expectCloudError(a, 429, "TooManyRequests");
    expect(a.headers.get("retry-after")).toBe("3");
    const b = await call(sim.url, "GET", "/waap/reseller/ping");
    expect(b.status).toBe(429);
    expect(b.headers.get("retry-after")).toBe("3");
    expect(b.body).toMatchObject({ status: 429 });
    expect((await call(sim.url, "GET", "/cloud/v1/regions")).status).toBe(200);
  });

  test("burst429 with everyRequests comes back after that many requests", async () => {
    await admin("POST", "/faults", { burst429: { count: 2, retryAfterSeconds: 1, everyRequests: 3 }, path: "/iam/clients/me" });
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(sim.url, "GET", "/iam/clients/me")).status);
    expect(statuses).toEqual([429, 429, 200, 200, 200, 429, 429, 200, 200, 200, 429, 429]);
    expect((await admin("POST", "/faults", { burst429: { count: 1, everyRequests: 0 } })).status).toBe(400);
  });
});

describe("list shifts", () => {
  const firstIds = async (path: string, key: string, query = "") => {
    const r = await call(sim.url, "GET", `${path}${query}`);
    expect(r.status).toBe(200);
    return (r.body.results as Array<Record<string, unknown>>).map((x) => String(x[key]));
  };

  test.each([
    { path: "/cloud/v1/instances/1/76", key: "id", query: "?limit=5" },
    { path: "/cloud/v2/k8s/clusters/1/76", key: "name", query: "?limit=5" },
    { path: "/cloud/v1/projects", key: "id", query: "?limit=5" },
    { path: "/cloud/v1/tasks", key: "id", query: "?limit=5" },
    { path: "/streaming/ai/tasks", key: "task_id", query: "?limit=5" },
  ])("$path: after a page, two new items lead the list; after the next, the head item is gone", async ({ path, key, query }) => {
    expect((await admin("POST", "/list-shifts", { path, insert: 2, times: 1 })).status).toBe(200);
    const before = await firstIds(path, key, query);
    const after = await firstIds(path, key, query);
    expect(after.slice(2)).toEqual(before.slice(0, 3));
    expect(after.slice(0, 2).some((id) => before.includes(id))).toBe(false);
    await admin("POST", "/list-shifts", { path, remove: 1, times: 1 });
    await firstIds(path, key, query);
    expect((await firstIds(path, key, query)).slice(0, after.length - 1)).toEqual(after.slice(1));
  });

  test("times runs out; GET lists the rules; DELETE and reset clear them; a bad rule is 400 naming what is allowed", async () => {
    await admin("POST", "/list-shifts", { path: "/cloud/v1/instances/1/76", insert: 1, times: 1 });
    const count = async () => (await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=1")).body.count as number;
    const first = await count();
    expect(await count()).toBe(first + 1);
    expect(await count()).toBe(first + 1);
    expect((await admin("GET", "/list-shifts")).body.listShifts).toEqual([{ path: "/cloud/v1/instances/1/76", insert: 1, remove: 0, times: 0 }]);
    expect((await admin("DELETE", "/list-shifts")).status).toBe(204);
    expect((await admin("GET", "/list-shifts")).body.listShifts).toEqual([]);
    const bad = await admin("POST", "/list-shifts", { path: "/cloud/v1/regions", insert: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("path must name a paged list: /cloud/v1/instances/{project_id}/{region_id}");
    expect((await admin("POST", "/list-shifts", { path: "/cloud/v1/projects" })).body.error).toBe("insert or remove must be at least 1");
    await admin("POST", "/list-shifts", { path: "/cloud/v1/projects", insert: 1 });
    await admin("POST", "/reset");
    expect((await admin("GET", "/list-shifts")).body.listShifts).toEqual([]);
  });
});
