/**
 * Two accounts in one program on the plugin path: a Python program
 * (tests/integration/programs/python-plugin/multi_account.py) declares two explicit providers,
 * each with its own key and base URL (two simulators), and a StorageEvent under each. Each
 * resource must call its own account only: its create, update and delete land on its simulator,
 * with its key (a simulator refuses any other), and no key reaches state or output.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { runLanguageProgram, stepOf, type ProgramRun } from "./pluginSupport";
import { withoutSecretValues } from "./stateSecrets";

jest.setTimeout(900_000);

/** The default provider's account: the program declares nothing on it. */
let unused: RunningSimulator;
let a: RunningSimulator;
let b: RunningSimulator;
let run: ProgramRun;

beforeAll(async () => {
  const start = () => startSimulator({ apiKey: newKey(), timeScale: 30 });
  [unused, a, b] = await Promise.all([start(), start(), start()]);
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  run = await runLanguageProgram(path.join(venv, "bin", "python"), [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/multi_account.py")], unused, TEST_PASSPHRASE, {
    ACCOUNT_A_BASE_URL: a.url,
    ACCOUNT_A_API_KEY: a.apiKey,
    ACCOUNT_B_BASE_URL: b.url,
    ACCOUNT_B_API_KEY: b.apiKey,
  }, [a.apiKey, b.apiKey]);
});
afterAll(async () => {
  await Promise.all([unused, a, b].map((s) => s?.close()));
});

/** The storage writes `sim` received, as `METHOD ok|refused`. */
const storageWrites = (sim: RunningSimulator) =>
  sim
    .requests()
    .filter((r) => r.path.startsWith("/storage/") && r.method !== "GET")
    .map((r) => `${r.method} ${r.status >= 200 && r.status < 300 ? "ok" : "refused"}`);

test("the program ran every step", () => {
  expect(run.failure).toBeUndefined();
  expect([...run.steps.keys()]).toEqual(["create", "update", "preview", "state", "destroy"]);
  expect(stepOf(run, "create").changes).toEqual({ create: 5 });
  expect(stepOf(run, "update").changes).toEqual({ same: 3, update: 2 });
  expect(stepOf(run, "preview").changes).toEqual({ same: 5 });
});

test("each resource created, updated and deleted its event in its own account, with its own key", () => {
  // The same identity in both accounts: each simulator saw one create, one update, one delete.
  for (const sim of [a, b]) expect(storageWrites(sim)).toEqual(["POST ok", "PUT ok", "DELETE ok"]);
  expect(storageWrites(unused)).toEqual([]);
  // Nothing was refused anywhere: every request carried the key of the account it reached.
  for (const sim of [unused, a, b]) expect(sim.requests().filter((r) => r.status === 401 || r.status === 403)).toEqual([]);
  const uuids = stepOf(run, "create").outputs?.["uuids"] as { a: string; b: string };
  expect(uuids.a).not.toBe(uuids.b);
  const resources = stepOf(run, "state").deployment?.resources ?? [];
  const idOf = (name: string) => resources.find((r) => String(r.urn).endsWith(`::${name}`))?.id;
  expect([idOf("space-a"), idOf("space-b")]).toEqual([uuids.a, uuids.b]);
  // The lookup under account A's provider asked A.
  expect(stepOf(run, "create").outputs?.["regionSeenByA"]).toBe(76);
  expect(a.requests().some((r) => r.method === "GET" && r.path.includes("/regions"))).toBe(true);
  expect(b.requests().some((r) => r.path.includes("/regions"))).toBe(false);
  expect([a, b].map((s) => s.state().storageEvents)).toEqual([[], []]);
});

test("no key in state, output or the backend's files", () => {
  const state = JSON.stringify(withoutSecretValues(stepOf(run, "state").deployment));
  for (const key of [a.apiKey, b.apiKey]) {
    expect(state).not.toContain(key);
    expect(run.output).not.toContain(key);
  }
  expect(run.backendLeaks).toEqual([]);
});
