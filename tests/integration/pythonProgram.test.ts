/**
 * A Python program on the generated SDK (sdk/python) drives the plugin against the simulator:
 * every lookup, a K8sClusterUpgrade with progress on its row, two StorageEvents created,
 * updated in place and deleted, then a no-change preview and refresh, then destroy.
 *
 * The program (tests/integration/programs/python-plugin/inline_program.py) is an Automation API
 * inline program, so no Python language host is needed; `scripts/python-env.sh` provides PyPI's
 * `pulumi` at the CLI's version plus the generated SDK in a cached venv. Needs dist/ built.
 */
import { execFile, execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { FUNCTIONS, TOKEN_PREFIX } from "../../provider/plugin/functions";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { pulumiRoot, REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { pluginPathDir } from "./pluginSupport";
import { backendFiles, withoutSecretValues } from "./stateSecrets";

jest.setTimeout(900_000);

interface Step {
  step: string;
  changes?: Record<string, number>;
  outputs?: Record<string, unknown>;
  progress?: Array<{ urn: string; ephemeral: boolean; message: string }>;
  deployment?: { resources: Array<Record<string, any>> };
}

let sim: RunningSimulator;
let steps: Map<string, Step>;
let output: string;
let failure: string | undefined;
let backendLeaks: string[];

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-py-"));
  const pathDir = pluginPathDir();
  for (const d of ["backend", "home"]) fs.mkdirSync(path.join(dir, d));
  try {
    const result = await new Promise<{ stdout: string; stderr: string; code: number }>((resolve) =>
      execFile(
        path.join(venv, "bin", "python"),
        [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/inline_program.py")],
        {
          cwd: dir,
          maxBuffer: 256 * 1024 * 1024,
          env: {
            ...process.env,
            PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}`,
            CLOUDPLATFORM_BASE_URL: sim.url,
            CLOUDPLATFORM_TEST_API_KEY: sim.apiKey,
            PULUMI_ROOT: pulumiRoot(),
            BACKEND_DIR: path.join(dir, "backend"),
            PULUMI_HOME: path.join(dir, "home"),
            PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
          },
        },
        (err, stdout, stderr) => resolve({ stdout, stderr, code: err ? 1 : 0 }),
      ),
    );
    // The `state` line is the decrypted export (secrets shown); the key may only appear there, secret-marked.
    output = (result.stdout + result.stderr)
      .split("\n")
      .filter((l) => !l.startsWith('RESULT {"step": "state"'))
      .join("\n");
    backendLeaks = backendFiles(`file://${path.join(dir, "backend")}`).filter((f) => f.text.includes(sim.apiKey)).map((f) => f.file);
    if (result.code !== 0) failure = output.slice(-4000);
    steps = new Map(
      result.stdout
        .split("\n")
        .filter((l) => l.startsWith("RESULT "))
        .map((l) => JSON.parse(l.slice("RESULT ".length)) as Step)
        .map((s) => [s.step, s]),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(pathDir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await sim.close();
});

function step(name: string): Step {
  const s = steps.get(name);
  if (!s) throw new Error(`the program did not report step ${name}; ${failure ?? "it exited cleanly"}`);
  return s;
}

test("the program ran every step", () => {
  expect(failure).toBeUndefined();
  expect([...steps.keys()]).toEqual(["create", "update", "delete", "preview", "refresh", "state", "destroy"]);
});

test("every lookup is served to Python through the plugin", () => {
  const all = [...FUNCTIONS.keys()].map((t) => t.slice(TOKEN_PREFIX.length)).sort();
  expect([...(step("update").outputs?.["lookups"] as string[])].sort()).toEqual(all);
  expect(step("create").outputs?.["clusterVersionSeen"]).toBe("v1.30.4");
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
  expect(output).not.toContain(sim.apiKey);
  expect(backendLeaks).toEqual([]);
});
