/**
 * Auth: a wrong key and a read-only key each fail fast, never retried (exactly one request to
 * the endpoint that refused, per attempt), with a message saying which: an invalid key (401) or
 * a key without permission (403). Neither key appears in any message.
 */
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { createTestStack, type TestStack } from "../integration/harness";
import * as cloud from "../../sdk/nodejs";
import {
  count,
  createProgramDirStack,
  EVENT_PATH,
  LOOKUP_PROGRAM,
  printSummary,
  rejectionMessage,
  requestLog,
  simConfig,
  writeLookupCase,
  type Sim,
} from "./support";

jest.setTimeout(600_000);

const INVALID = "The API key is missing or invalid";
const DENIED = "The API key is valid but lacks permission for this operation";
const WRONG_KEY = newKey();
const CLUSTER_PATH = "/cloud/v2/k8s/clusters/1/76/prod-cluster";

let sim: Sim;
let tried = 0;
let fast = 0;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 60 });
});

afterAll(async () => {
  try {
    for (const c of cleanups.splice(0)) await c().catch(() => undefined);
  } finally {
    await sim?.close();
    count((c) => {
      c.authCasesTried += tried;
      c.authCasesFailedFast += fast;
    });
    printSummary("auth", `${fast}/${tried} auth failures fast and named`);
  }
});

/** An inline stack declaring one resource, with `key` as the configured API key. */
async function stackWith(key: string, declare: () => unknown): Promise<TestStack> {
  const t = await createTestStack({
    projectName: "reliability-auth",
    program: async () => {
      declare();
      return {};
    },
    config: simConfig(sim, key),
  });
  // The state holds nothing of the failed runs: removing the temp dir (backend and all) is enough.
  cleanups.push(async () => t.discard());
  return t;
}

/**
 * Runs `op` on a fresh log; checks the message and that `method path` was requested once, refused
 * with `status`; `alsoRefused` (`METHOD path`) were refused once each too, without failing it.
 */
async function expectFastFailure(op: () => Promise<unknown>, key: string, method: string, p: string, status: number, says: string, alsoRefused: string[] = []): Promise<string> {
  tried++;
  await admin(sim, "DELETE", "/requests");
  const message = await rejectionMessage(op());
  const log = await requestLog(sim);
  const toEndpoint = log.filter((r) => r.method === method && r.path === p);
  expect(toEndpoint.map((r) => r.status)).toEqual([status]);
  // Nothing else was refused (or retried).
  expect(log.filter((r) => r.status === status).map((r) => `${r.method} ${r.path}`).sort()).toEqual([`${method} ${p}`, ...alsoRefused].sort());
  expect(message).toContain(says);
  expect(message).toContain(`${method} ${p}`);
  expect(message).not.toContain(key.slice(0, 12));
  expect(message).not.toContain(sim.apiKey.slice(0, 12));
  fast++;
  return message;
}

const event = () => new cloud.StorageEvent("auth-event", { name: "reaching_used_space", storageName: "auth", bytes: 1 });
const upgrade = () => new cloud.K8sClusterUpgrade("auth-upgrade", { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" });

test("wrong key, StorageEvent: up fails on the first call, 401 once, 'missing or invalid'", async () => {
  const t = await stackWith(WRONG_KEY, event);
  const message = await expectFastFailure(() => t.stack.up({ color: "never" }), WRONG_KEY, "GET", `${EVENT_PATH}s`, 401, INVALID);
  expect(message).toContain("cloudplatform:apiKey");
  expect(sim.requests().filter((r) => r.method === "POST")).toEqual([]);
});

test("read-only key, StorageEvent: the create POST is refused once, 'lacks permission'", async () => {
  const t = await stackWith(sim.readOnlyApiKey, event);
  await expectFastFailure(() => t.stack.up({ color: "never" }), sim.readOnlyApiKey, "POST", EVENT_PATH, 403, DENIED);
  expect(sim.state().storageEvents).toEqual([]);
});

test("wrong key, K8sClusterUpgrade: preview fails at check, 401 once, 'missing or invalid'", async () => {
  const t = await stackWith(WRONG_KEY, upgrade);
  await expectFastFailure(() => t.stack.preview({ color: "never" }), WRONG_KEY, "GET", CLUSTER_PATH, 401, INVALID);
});

test("read-only key, K8sClusterUpgrade: preview passes (reads; the quota check's POST refused is a warning), up's upgrade POST is refused once, 'lacks permission'", async () => {
  const t = await stackWith(sim.readOnlyApiKey, upgrade);
  let previewed = "";
  await t.stack.preview({ color: "never", onOutput: (s) => (previewed += s) });
  expect(previewed).toContain("prod-cluster: the quota check for the upgrade could not be answered");
  const quotaCheck = "POST /cloud/v2/k8s/clusters/1/76/pools/check_limits";
  await expectFastFailure(() => t.stack.up({ color: "never" }), sim.readOnlyApiKey, "POST", `${CLUSTER_PATH}/upgrade`, 403, DENIED, [quotaCheck]);
  expect(sim.state().clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.30.4");
});

test("wrong key, lookup: preview fails on the first request, 401 once, 'missing or invalid'", async () => {
  const p = await createProgramDirStack("reliability-auth-lookup", LOOKUP_PROGRAM, simConfig(sim, WRONG_KEY));
  cleanups.push(p.cleanup);
  writeLookupCase(p, "getProjects", {});
  const message = await expectFastFailure(() => p.stack.preview({ color: "never" }), WRONG_KEY, "GET", "/cloud/v1/projects", 401, INVALID);
  expect(message).toContain("getProjects");
});
