/**
 * `pulumi-cloudplatform/testing`, the simulator as a user's test double: it starts in-process with
 * the seed the test chooses, says how to point a program at it (`env`, `stackConfig`), reports
 * the requests it answered, takes faults through the admin API (and says why it refused one),
 * resets, and stops; `connectTestSimulator` gives the same double over a simulator started
 * elsewhere, which its `close()` leaves running.
 */
import { createClient } from "../../../provider/api";
import { connectTestSimulator, defaultSeed, startTestSimulator, type TestSimulator } from "../../../sdk/nodejs/testing";

let sim: TestSimulator;

beforeAll(async () => {
  const seed = defaultSeed();
  const cluster = seed.clusters.find((c) => c.name === "demo-cluster");
  if (!cluster) throw new Error("the built-in seed has no demo-cluster");
  cluster.version = "v1.29.8";
  sim = await startTestSimulator({ seed, apiKey: "kit-key", timeScale: 1000 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await sim.reset();
});

const client = () => createClient({ baseUrl: sim.env.CLOUDPLATFORM_BASE_URL, apiKey: sim.env.CLOUDPLATFORM_API_KEY, retry: { maxAttempts: 1 } });

test("it serves the seed the test chose, at the address env and stackConfig name", async () => {
  expect(sim.env).toEqual({ CLOUDPLATFORM_BASE_URL: sim.url, CLOUDPLATFORM_API_KEY: "kit-key" });
  expect(sim.stackConfig).toEqual({ "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: "kit-key", secret: true } });
  expect((await client().cloud.k8s.getCluster(1, 76, "demo-cluster")).version).toBe("v1.29.8");
  expect((await sim.state()).clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.29.8");
});

test("defaultSeed is a fresh copy each time", () => {
  const a = defaultSeed();
  a.projects.length = 0;
  expect(defaultSeed().projects.length).toBeGreaterThan(0);
});

test("requests lists what it answered, filtered by method and path", async () => {
  await client().cloud.projects.list();
  await client().cloud.k8s.getCluster(1, 76, "demo-cluster");
  expect((await sim.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
    "GET /cloud/v1/projects 200",
    "GET /cloud/v2/k8s/clusters/1/76/demo-cluster 200",
  ]);
  expect((await sim.requests({ pathPrefix: "/cloud/v2/" })).map((r) => r.path)).toEqual(["/cloud/v2/k8s/clusters/1/76/demo-cluster"]);
  expect(await sim.requests({ method: "post" })).toEqual([]);
  await sim.clearRequests();
  expect(await sim.requests()).toEqual([]);
});

test("injectFaults breaks the requests it names, and clearFaults mends them", async () => {
  const faults = await sim.injectFaults({ errorRate: 1, path: "/cloud/v1/projects", times: 1 });
  expect(faults).toMatchObject({ errorRate: 1, path: "/cloud/v1/projects", times: 1 });
  await expect(client().cloud.projects.list()).rejects.toThrow(/503/);
  await client().cloud.projects.list(); // `times: 1` is used up
  await sim.injectFaults({ errorRate: 1 });
  await sim.clearFaults();
  await client().cloud.projects.list();
  expect((await sim.requests()).map((r) => r.status)).toEqual([503, 200, 200]);
});

test("injectMalformed spoils answers", async () => {
  await sim.injectMalformed({ mode: "html200", path: "/cloud/v1/projects", times: 1 });
  await expect(client().cloud.projects.list()).rejects.toThrow(/GET \/cloud\/v1\/projects/);
});

test("failNextTask makes the next task of that type end in ERROR with the given text", async () => {
  await sim.failNextTask("upgrade_k8s_cluster", "Quota limit for vm_count exceeded by 2");
  expect((await sim.state()).failNext).toEqual([{ task_type: "upgrade_k8s_cluster", error: "Quota limit for vm_count exceeded by 2" }]);
});

test("a call the admin API refuses fails with the method, path, status and the simulator's message", async () => {
  await expect(sim.injectFaults({ errorRate: 2 })).rejects.toThrow('simulator admin POST /__admin/faults: 400 {"error":"errorRate must be a number from 0 to 1"}');
});

test("admin reaches any admin call; reset goes back to the seed, the log and faults cleared", async () => {
  await sim.admin("PATCH", "/__admin/clusters/1/76/demo-cluster", { version: "v1.30.4" });
  await sim.injectFaults({ errorRate: 1 });
  await sim.reset();
  expect((await client().cloud.k8s.getCluster(1, 76, "demo-cluster")).version).toBe("v1.29.8");
  expect((await sim.requests()).map((r) => r.status)).toEqual([200]);
});

test("connectTestSimulator reads the same simulator, and its close() leaves it running", async () => {
  const connected = connectTestSimulator({ url: `${sim.url}/`, apiKey: sim.apiKey });
  expect(connected.url).toBe(sim.url);
  await client().iam.clients.me();
  expect((await connected.requests()).map((r) => r.path)).toEqual(["/iam/clients/me"]);
  await connected.close();
  expect((await sim.requests()).length).toBe(1);
});

test("close() stops a simulator the test started", async () => {
  const own = await startTestSimulator();
  await own.close();
  await expect(own.requests()).rejects.toThrow();
});
