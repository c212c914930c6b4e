/**
 * A stack the plugin of 0.1.0 wrote, read by this plugin: StorageEvent's `bytes` and `count`
 * were `integer` in the schema that plugin served and are `number` in this one (64-bit limits
 * for Java and C#). The engine and the YAML host read the served schema, so the YAML quickstart
 * (500 GiB and a million requests as literals) is the program: `up` with the previous commit's
 * plugin (the package of {@link PREVIOUS_COMMIT}, tests/integration/previousPackage.ts), then,
 * with this checkout's plugin on PATH instead, a preview and a refresh that change nothing and
 * write nothing. (The Python and Go SDKs are the same files as before: generatedSdks.test.ts.)
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { offlineEnv, REPO_ROOT } from "./harness";
import { installPackedPackage, PREVIOUS_COMMIT, previousPackageTarball } from "./previousPackage";
import { pluginPathDir, runPulumi } from "./pluginSupport";

jest.setTimeout(600_000);

let sim: RunningSimulator;
let dir: string;
const cleanups: string[] = [];

/** A PATH dir holding only `pulumi-resource-cloudplatform` of the previous commit's package. */
function previousPluginPathDir(): string {
  // Under the repo, so Node resolves the repo's node_modules from it.
  fs.mkdirSync(path.join(REPO_ROOT, ".test-tmp"), { recursive: true });
  const install = fs.mkdtempSync(path.join(REPO_ROOT, ".test-tmp", "previous-plugin-"));
  cleanups.push(install);
  installPackedPackage(install, previousPackageTarball());
  const schema = JSON.parse(fs.readFileSync(path.join(install, "node_modules", "pulumi-cloudplatform", "dist", "provider", "plugin", "schema.json"), "utf8")) as {
    resources: Record<string, { inputProperties: Record<string, { type?: string }> }>;
  };
  const inputs = schema.resources["cloudplatform:index:StorageEvent"]?.inputProperties;
  expect([inputs?.["bytes"]?.type, inputs?.["count"]?.type]).toEqual(["integer", "integer"]);
  const pathDir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-previous-path-"));
  cleanups.push(pathDir);
  fs.symlinkSync(path.join(install, "node_modules", "pulumi-cloudplatform", "bin", "pulumi-resource-cloudplatform"), path.join(pathDir, "pulumi-resource-cloudplatform"));
  return pathDir;
}

/** `pulumi <args>` on the dev stack with `pluginDir` first on PATH; throws on failure. */
async function cli(pluginDir: string, args: string[]): Promise<string> {
  const env = {
    ...offlineEnv(path.join(dir, "home")),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PATH: `${pluginDir}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  const res = await runPulumi([...args, "--stack", "dev", "--non-interactive", "--color", "never"], path.join(dir, "program"), env);
  const text = res.stdout + res.stderr;
  if (res.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${res.code}):\n${text}`);
  return text;
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-schema-upgrade-"));
  cleanups.push(dir);
  for (const d of ["program", "backend", "home"]) fs.mkdirSync(path.join(dir, d));
  fs.copyFileSync(path.join(REPO_ROOT, "examples/yaml-quickstart/Pulumi.yaml"), path.join(dir, "program", "Pulumi.yaml"));
});
afterAll(async () => {
  for (const d of cleanups.reverse()) fs.rmSync(d, { recursive: true, force: true });
  await sim?.close();
});

test(`the plugin of ${PREVIOUS_COMMIT.slice(0, 7)} (bytes and count integer in its schema) creates the stack`, async () => {
  const previous = previousPluginPathDir();
  await cli(previous, ["stack", "init"]);
  await cli(previous, ["config", "set", "cloudplatform:baseUrl", sim.url]);
  await cli(previous, ["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey]);
  await cli(previous, ["up", "--yes", "--skip-preview"]);
  const events = sim.state().storageEvents;
  expect(events.map((e) => e.bytes ?? e.count).sort()).toEqual([1_000_000, 500 * 1024 ** 3]);
});

test("with this plugin (bytes and count number): preview and refresh change nothing, and nothing is written", async () => {
  const current = pluginPathDir();
  cleanups.push(current);
  const writes = sim.requests().filter((r) => r.method !== "GET").length;
  const preview = await cli(current, ["preview", "--expect-no-changes", "--diff"]);
  expect(preview).not.toMatch(/[~+-]\s+cloudplatform:index/);
  await cli(current, ["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  await cli(current, ["preview", "--expect-no-changes"]);
  expect(sim.requests().filter((r) => r.method !== "GET")).toHaveLength(writes);
});
