/**
 * `pulumi package add` of the source-based plugin from a TypeScript program, the way a user
 * installs it: the CLI runs the plugin from its PulumiPlugin.yaml directory (the language host's
 * RunPlugin) for the schema, the language host generates a local Node.js SDK (GeneratePackage)
 * and adds it to package.json (Link), and `npm install` compiles it. The program then uses that
 * SDK against the simulator, with the plugin found only through the `packages` entry that
 * `package add` wrote into Pulumi.yaml: it is not on PATH. The program is the snippet of
 * docs/installation-configuration.md (one StorageEvent, one lookup), so the documented code is
 * what runs.
 *
 * Needs `npx tsc -p tsconfig.json` first (the plugin runs dist/) and the npm registry or cache
 * (the program installs @pulumi/pulumi, the local SDK TypeScript to compile itself).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { promisify } from "util";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { createTestStack, REPO_ROOT, resourcesByName, type TestStack } from "./harness";
import { runPulumi, sourcePluginDir } from "./pluginSupport";

jest.setTimeout(600_000);

const SDK_NAME = "@pulumi-cloudplatform/cloudplatform";

/** The program a user writes after `pulumi package add`: the install page's snippet importing the SDK. */
function documentedProgram(): string {
  const page = fs.readFileSync(path.join(REPO_ROOT, "docs/installation-configuration.md"), "utf8");
  const blocks = [...page.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  const program = blocks.find((code) => code.includes(`from "${SDK_NAME}"`));
  if (!program) throw new Error(`docs/installation-configuration.md has no TypeScript snippet importing ${SDK_NAME}`);
  return program;
}

/** The version the repo has installed of a package, so the program's install comes from npm's cache. */
function installedVersion(pkg: string): string {
  return (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
}

/** PATH without any directory holding a `pulumi-resource-cloudplatform` (npm's .bin has one). */
function pathWithoutPlugin(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi-resource-cloudplatform")))
    .join(path.delimiter);
}

function writeProgram(dir: string): void {
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: pkgadd-it\nruntime: nodejs\n");
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify(
      {
        name: "pkgadd-it",
        version: "0.0.0",
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": installedVersion("@pulumi/pulumi") },
        devDependencies: { typescript: installedVersion("typescript"), "@types/node": installedVersion("@types/node") },
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(dir, "index.ts"), documentedProgram());
}

let sim: RunningSimulator;
let sourceDir: string;
let t: TestStack;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  sourceDir = sourcePluginDir();
  t = await createTestStack({
    projectName: "pkgadd-it",
    writeProgram,
    config: { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: sim.apiKey, secret: true } },
    envVars: { PATH: pathWithoutPlugin() },
  });
});
afterAll(async () => {
  await t?.cleanup();
  await sim?.close();
  if (sourceDir) fs.rmSync(sourceDir, { recursive: true, force: true });
});

test("`pulumi package add <plugin dir>` generates the local SDK, adds it to package.json and installs it compiled", async () => {
  const dir = t.programDir;
  await promisify(execFile)("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir, env: { ...process.env, ...t.envVars } });

  const added = await runPulumi(["package", "add", sourceDir], dir, t.envVars);
  expect({ code: added.code, stderr: added.code === 0 ? "" : added.stderr }).toEqual({ code: 0, stderr: "" });
  expect(added.stdout).toContain(`import * as cloudplatform from "${SDK_NAME}";`);

  // Generated files are readable by everyone, as any package's files (the build user of a CI
  // image or a container often differs from the user who ran `package add`).
  const generated = ["package.json", "index.ts", "storageEvent.ts", "k8sClusterUpgrade.ts"].map((f) => path.join(dir, "sdks/cloudplatform", f));
  expect(generated.map((f) => [path.basename(f), (fs.statSync(f).mode & 0o044).toString(8)])).toEqual(generated.map((f) => [path.basename(f), "44"]));
  const sdkManifest = JSON.parse(fs.readFileSync(path.join(dir, "sdks/cloudplatform/package.json"), "utf8")) as Record<string, any>;
  expect(sdkManifest).toMatchObject({ name: SDK_NAME, pulumi: { resource: true, name: "cloudplatform" } });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, any>;
  expect(manifest.dependencies).toMatchObject({ [SDK_NAME]: "file:sdks/cloudplatform" });
  // Installed, and compiled by its postinstall script (a local SDK ships TypeScript only).
  const entry = require.resolve(SDK_NAME, { paths: [dir] });
  expect(fs.realpathSync(entry)).toBe(fs.realpathSync(path.join(dir, "sdks/cloudplatform/bin/index.js")));
  expect(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")).toContain(`cloudplatform: ${sourceDir}`);
});

test("a program using the added SDK creates, previews with no changes and destroys against the simulator", async () => {
  const writes = (from: number): string[] =>
    sim
      .requests()
      .slice(from)
      .filter((r) => r.method !== "GET")
      .map((r) => `${r.method} ${r.path}`);

  let before = sim.requests().length;
  const up = await t.stack.up({ color: "never" });
  expect(up.summary.resourceChanges).toEqual({ create: 2 });
  expect(writes(before)).toEqual(["POST /storage/notifications/v1/event"]);
  const stored = sim.state().storageEvents;
  expect(stored).toEqual([expect.objectContaining({ name: "reaching_used_space", storage_name: "media", bytes: 1000 })]);
  expect(up.outputs.uuid?.value).toBe(stored[0]?.uuid);
  expect(up.outputs.regionIds?.value).toEqual(sim.state().regions.filter((r) => r.state === "ACTIVE").map((r) => r.id));

  const media = (await resourcesByName(t.stack)).get("media");
  expect(media).toMatchObject({ type: "cloudplatform:index:StorageEvent", id: stored[0]?.uuid });
  expect(Object.keys(media?.outputs ?? {})).not.toContain("__provider");

  before = sim.requests().length;
  const preview = await t.stack.preview({ expectNoChanges: true, color: "never" });
  expect(preview.changeSummary).toEqual({ same: 2 });
  expect(writes(before)).toEqual([]);

  before = sim.requests().length;
  await t.stack.destroy({ color: "never" });
  expect(writes(before)).toEqual([`DELETE /storage/notifications/v1/event`]);
  expect(sim.state().storageEvents).toEqual([]);
});
