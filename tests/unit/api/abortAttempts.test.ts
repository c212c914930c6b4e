/**
 * A request cancelled by its caller reports the attempts actually sent, on the same count as
 * every other request error: a wait cancelled after attempt N says N, an attempt cancelled in
 * flight counts itself.
 */
import { createClient, RequestAbortedError } from "../../../provider/api";
import { startSimulator } from "../../../simulator";
import { admin, newKey, rejectionOf } from "./helpers";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 50 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await admin(sim.url, "POST", "/reset");
});

const sent = () => sim.requests().filter((r) => r.method === "GET" && r.path === "/cloud/v1/projects").length;

test.each([1, 2, 3])("cancelled in the wait after attempt %i: attempts says so, and nothing more was sent", async (n) => {
  await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/projects" });
  const ac = new AbortController();
  let waits = 0;
  const c = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { maxAttempts: 5 }, sleep: async () => void (++waits === n && ac.abort()) });
  const err = await rejectionOf(c.cloud.projects.list({}, { signal: ac.signal }));
  expect(err).toBeInstanceOf(RequestAbortedError);
  expect((err as RequestAbortedError).attempts).toBe(n);
  expect(sent()).toBe(n);
});

test("cancelled while attempt 2 is held by the server: attempts says 2", async () => {
  await admin(sim.url, "POST", "/faults", { errorRate: 1, pathPrefix: "/cloud/v1/projects" });
  const ac = new AbortController();
  const c = createClient({
    baseUrl: sim.url,
    apiKey: sim.apiKey,
    sleep: async () => {
      // The second attempt meets a held answer; the caller gives up while it is held.
      await admin(sim.url, "POST", "/faults", { latencyMs: 1_000, pathPrefix: "/cloud/v1/projects" });
      setTimeout(() => ac.abort(), 100);
    },
  });
  const err = await rejectionOf(c.cloud.projects.list({}, { signal: ac.signal }));
  expect(err).toBeInstanceOf(RequestAbortedError);
  expect((err as RequestAbortedError).attempts).toBe(2);
  // The server still holds the abandoned request; let it answer before the simulator closes.
  while (sim.inFlight().length > 0) await new Promise((r) => setTimeout(r, 50));
});
