/**
 * A Python program on the generated SDK (sdk/python) drives the plugin against the simulator:
 * every lookup, a K8sClusterUpgrade with progress on its row, two StorageEvents created,
 * updated in place and deleted, then a no-change preview and refresh, then destroy.
 *
 * The program (tests/integration/programs/python-plugin/inline_program.py) is an Automation API
 * inline program, so no Python language host is needed; `scripts/python-env.sh` provides PyPI's
 * `pulumi` at the CLI's version plus the generated SDK in a cached venv. Needs dist/ built.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { FUNCTIONS, TOKEN_PREFIX } from "../../provider/plugin/functions";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { runLanguageProgram, stepOf, type ProgramRun } from "./pluginSupport";
import { withoutSecretValues } from "./stateSecrets";

jest.setTimeout(900_000);

let sim: RunningSimulator;
let run: ProgramRun;
const step = (name: string) => stepOf(run, name);

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  run = await runLanguageProgram(path.join(venv, "bin", "python"), [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/inline_program.py")], sim, TEST_PASSPHRASE);
});
afterAll(async () => {
  await sim.close();
});

test("the program ran every step", () => {
  expect(run.failure).toBeUndefined();
  expect([...run.steps.keys()]).toEqual(["create", "update", "delete", "preview", "refresh", "state", "destroy"]);
});

test("every lookup is served to Python through the plugin", () => {
  const all = [...FUNCTIONS.keys()].map((t) => t.slice(TOKEN_PREFIX.length)).sort();
  expect([...(step("update").outputs?.["lookups"] as string[])].sort()).toEqual(all);
  expect(step("create").outputs?.["clusterVersionSeen"]).toBe("v1.30.4");
  expect(step("create").outputs?.["clusterNamesSeen"]).toEqual(["prod-cluster"]);
  expect(step("create").outputs?.["resellerTotal"]).toEqual(expect.any(Number));
});

test("the upgrade runs once, with progress on the upgrade's own row", () => {
  const create = step("create");
  expect(create.changes).toEqual({ create: 4 });
  expect(create.outputs?.["upgradePath"]).toEqual(["v1.31.2"]);
  expect(create.progress?.some((p) => p.ephemeral && p.urn.endsWith("::prod") && /prod-cluster/.test(p.message))).toBe(true);
  const upgrades = sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/prod-cluster/upgrade"));
  expect(upgrades).toHaveLength(1);
  expect(sim.state().clusters.find((c) => c.name === "prod-cluster")?.version).toBe("v1.31.2");
});

test("two events are created, updated in place, deleted; then no changes on preview and refresh", () => {
  expect(step("update").changes).toEqual({ same: 2, update: 2 });
  expect(step("delete").changes).toEqual({ same: 2, delete: 2 });
  const storageWrites = sim
    .requests()
    .filter((r) => r.method !== "GET" && r.path.startsWith("/storage/"))
    .map((r) => r.method);
  expect(storageWrites).toEqual(["POST", "POST", "PUT", "PUT", "DELETE", "DELETE"]);
  expect(sim.state().storageEvents).toEqual([]);
  expect(step("preview").changes).toEqual({ same: 2 });
  expect(step("refresh").changes).toEqual({ same: 2 });
  expect(step("destroy").changes).toEqual({ delete: 2 });
});

test("state holds no serialized provider and no plain API key; output never shows the key", () => {
  const resources = step("state").deployment?.resources ?? [];
  expect(resources.map((r) => r.type).sort()).toEqual(["cloudplatform:index:K8sClusterUpgrade", "pulumi:providers:cloudplatform", "pulumi:pulumi:Stack"]);
  for (const r of resources) expect(Object.keys(r.outputs ?? {})).not.toContain("__provider");
  expect(JSON.stringify(withoutSecretValues(step("state").deployment))).not.toContain(sim.apiKey);
  expect(run.output).not.toContain(sim.apiKey);
  expect(run.backendLeaks).toEqual([]);
});
