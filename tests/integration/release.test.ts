/**
 * `make dist` as a user of each artifact meets it: one run of tools/release/dist.sh (the Go
 * SDK's build check left to the Go program tests, which compile it) into a temp directory, then
 * - SHA256SUMS names exactly the published files, with their hashes;
 * - the npm tarball holds the compiled package and no tests, build stamps or .ts sources;
 * - every plugin archive has its platform's launcher at the root and the package beside it;
 * - the wheel installs into a fresh venv (with PyPI's `pulumi` at the CLI's version) and
 *   imports, knowing its own version; the sdist holds the package;
 * - this machine's archive installs with `pulumi plugin install resource cloudplatform <version>
 *   --file <archive>` into a fresh PULUMI_HOME and serves the schema (`pulumi package get-schema`)
 *   with no other plugin on PATH.
 * Needs dist/ built, python3, and npm's and pip's caches or registries.
 */
import { execFileSync, spawnSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "./harness";
import { runPulumi } from "./pluginSupport";

jest.setTimeout(900_000);

interface ArchiveTool {
  TARGETS: { os: string; arch: string }[];
  PLUGIN_MAIN: string[];
  archiveName(version: string, os: string, arch: string): string;
  launcherFor(os: string): { name: string; text: string };
  hostTarget(): { os: string; arch: string };
}
/* eslint-disable @typescript-eslint/no-require-imports */
const archives = require("../../tools/release/pluginArchives.js") as ArchiveTool;
const { pep440 } = require("../../tools/release/version.js") as { pep440(v: string): string };
/* eslint-enable @typescript-eslint/no-require-imports */

/** The CLI's version: the Python SDK's `pulumi` dependency is pinned to it, as the other Python tests do. */
const PULUMI_PY_VERSION = "3.248.0";
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "provider/plugin/schema.json"), "utf8")) as { version: string };

let work: string;
let out: string;
let distLog: string;

/** A file's SHA-256, hex. */
const sha256 = (file: string) => crypto.createHash("sha256").update(new Uint8Array(fs.readFileSync(file))).digest("hex");
const tarList = (file: string) => execFileSync("tar", ["-tzf", file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).split("\n").filter(Boolean);

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-release-"));
  out = path.join(work, "dist-release");
  const run = spawnSync("bash", [path.join(REPO_ROOT, "tools/release/dist.sh"), "--out", out, "--skip-go-build"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  distLog = `${run.stderr}`;
  if (run.status !== 0) throw new Error(`tools/release/dist.sh failed (${run.status}):\n${distLog}`);
  expect(run.stdout.trim()).toBe(out);
});
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("SHA256SUMS lists exactly the published files with their hashes, all from package.json's version", () => {
  const expected = [
    `pulumi-cloudplatform-${VERSION}.tgz`,
    ...archives.TARGETS.map((t) => archives.archiveName(VERSION, t.os, t.arch)),
    `pulumi_cloudplatform-${pep440(VERSION)}-py3-none-any.whl`,
    `pulumi_cloudplatform-${pep440(VERSION)}.tar.gz`,
  ].sort();
  expect(fs.readdirSync(out).sort()).toEqual([...expected, "SHA256SUMS"].sort());
  const sums = fs
    .readFileSync(path.join(out, "SHA256SUMS"), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(/\s+\*?/));
  expect(sums.map(([, file]) => file).sort()).toEqual(expected);
  for (const [hash, file] of sums) {
    expect({ file, hash }).toEqual({ file, hash: sha256(path.join(out, file as string)) });
  }
  // The Go SDK is published by a tag; dist names it.
  expect(distLog).toContain(`git tag sdk/v${VERSION} && git push origin sdk/v${VERSION}`);
});

test("the npm tarball holds the compiled package and no tests, build stamps or .ts sources", () => {
  const files = tarList(path.join(out, `pulumi-cloudplatform-${VERSION}.tgz`)).map((f) => f.replace(/^package\//, ""));
  for (const must of ["package.json", "README.md", "bin/pulumi-resource-cloudplatform", "dist/provider/plugin/main.js", "dist/sdk/index.d.ts", "PulumiPlugin.yaml"]) expect(files).toContain(must);
  expect(files.filter((f) => /(^|\/)tests?\/|\.test\.|\.stamp$|(?<!\.d)\.ts$/.test(f))).toEqual([]);
});

test("every plugin archive has its platform's launcher at the root and the package beside it", () => {
  const main = archives.PLUGIN_MAIN.join("/");
  for (const { os: osName, arch } of archives.TARGETS) {
    const file = path.join(out, archives.archiveName(VERSION, osName, arch));
    const entries = tarList(file).map((e) => e.replace(/^\.\//, ""));
    const launcher = archives.launcherFor(osName);
    const roots = entries.filter((e) => !e.includes("/") && e !== "");
    expect({ osName, arch, roots }).toEqual({ osName, arch, roots: [launcher.name] });
    expect(entries).toContain(main);
    const text = execFileSync("tar", ["-xzOf", file, launcher.name], { encoding: "utf8" });
    expect(text).toBe(launcher.text);
    const mode = execFileSync("tar", ["-tvzf", file, launcher.name], { encoding: "utf8" }).slice(0, 10);
    expect({ osName, mode }).toEqual({ osName, mode: "-rwxr-xr-x" });
  }
});

test("the wheel installs into a fresh venv and imports, knowing its version; the sdist holds the package", () => {
  const venv = path.join(work, "venv");
  execFileSync("python3", ["-m", "venv", venv]);
  const wheel = path.join(out, `pulumi_cloudplatform-${pep440(VERSION)}-py3-none-any.whl`);
  execFileSync(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", wheel, `pulumi==${PULUMI_PY_VERSION}`], { stdio: ["ignore", "ignore", "inherit"] });
  const probe = [
    "import json, importlib.metadata as md, pulumi_cloudplatform as cp",
    "from pulumi_cloudplatform import _utilities",
    "print(json.dumps({'file': cp.__file__, 'dist': md.version('pulumi_cloudplatform'), 'sdk': _utilities.get_version(),",
    "  'classes': [cp.K8sClusterUpgrade.__name__, cp.StorageEvent.__name__], 'lookup': callable(cp.get_regions)}))",
  ].join("\n");
  const seen = JSON.parse(execFileSync(path.join(venv, "bin", "python"), ["-c", probe], { encoding: "utf8", cwd: work })) as Record<string, unknown>;
  expect(seen).toEqual({ file: expect.stringContaining(path.join(venv, "lib")), dist: pep440(VERSION), sdk: VERSION, classes: ["K8sClusterUpgrade", "StorageEvent"], lookup: true });

  const sdist = tarList(path.join(out, `pulumi_cloudplatform-${pep440(VERSION)}.tar.gz`));
  const top = `pulumi_cloudplatform-${pep440(VERSION)}`;
  for (const must of ["pyproject.toml", "README.md", "pulumi_cloudplatform/__init__.py", "pulumi_cloudplatform/pulumi-plugin.json", "pulumi_cloudplatform/py.typed"]) expect(sdist).toContain(`${top}/${must}`);
});

test("this machine's archive installs with `pulumi plugin install --file` into a fresh PULUMI_HOME and serves the schema", async () => {
  const host = archives.hostTarget();
  const archive = path.join(out, archives.archiveName(VERSION, host.os, host.arch));
  const home = fs.mkdtempSync(path.join(work, "pulumi-home-"));
  // Node.js and the system, nothing else: no plugin on PATH, so only the installed one can answer.
  const env = { PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", PATH: path.dirname(process.execPath) + path.delimiter + "/usr/bin:/bin" };
  const install = await runPulumi(["plugin", "install", "resource", "cloudplatform", VERSION, "--file", archive], work, env);
  expect({ code: install.code, stderr: install.stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/error|warn/i) });
  expect(fs.existsSync(path.join(home, "plugins", `resource-cloudplatform-v${VERSION}`, archives.launcherFor(host.os).name))).toBe(true);
  const schema = await runPulumi(["package", "get-schema", "cloudplatform"], work, env);
  expect(schema.code).toBe(0);
  expect(JSON.parse(schema.stdout)).toEqual(SCHEMA);
  expect(SCHEMA.version).toBe(VERSION);
});
