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
 *   with no other plugin on PATH;
 * - a fresh CI machine gets the plugin by itself: the build is made with PLUGIN_DOWNLOAD_URL set
 *   to a loopback HTTP server (127.0.0.1, an ephemeral port) that serves this build's archives,
 *   so every artifact names it (dist.sh stamps a staged copy; the repository is not touched).
 *   A Python program on the SDK installed from the wheel runs `pulumi up` against the simulator
 *   with an empty PULUMI_HOME, nothing on PATH but Node.js and the system, and automatic plugin
 *   acquisition on (harness.offlineEnv turns it off for every other suite): the engine downloads
 *   the plugin into PULUMI_HOME/plugins. `pulumi plugin install ... --server <url>` does the
 *   same, and a wrong URL fails with the CLI's own message naming the URL it tried.
 * Needs dist/ built, python3, and npm's and pip's caches or registries.
 */
import { execFile, execFileSync, spawn } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as http from "http";
import type { AddressInfo } from "net";
import * as os from "os";
import * as path from "path";
import { startSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { pulumiRoot, REPO_ROOT, TEST_PASSPHRASE } from "./harness";
import { runPulumi } from "./pluginSupport";
import { QUICKSTART_UP_OUTPUTS } from "./quickstartExpectations";

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
/** The loopback server of the plugin archives, its URL (the one stamped into this build) and the paths asked of it. */
let server: http.Server;
let downloadURL: string;
const served: string[] = [];

/** A file's SHA-256, hex. */
const sha256 = (file: string) => crypto.createHash("sha256").update(new Uint8Array(fs.readFileSync(file))).digest("hex");
const tarList = (file: string) => execFileSync("tar", ["-tzf", file], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).split("\n").filter(Boolean);

/** Serves the files of `out` by name (GET only); anything else is a 404. */
function startArchiveServer(): Promise<http.Server> {
  const srv = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? "").split("?")[0] ?? "");
    served.push(name);
    const file = path.join(out, path.basename(name));
    if (req.method !== "GET" || name !== `/${path.basename(name)}` || !fs.existsSync(file)) {
      res.writeHead(404).end("not found\n");
      return;
    }
    res.writeHead(200, { "Content-Type": "application/gzip", "Content-Length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => srv.once("error", reject).listen(0, "127.0.0.1", () => resolve(srv)));
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-release-"));
  out = path.join(work, "dist-release");
  server = await startArchiveServer();
  downloadURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  // Asynchronous, so the server above answers while the build runs (it is not asked yet).
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("bash", [path.join(REPO_ROOT, "tools/release/dist.sh"), "--out", out, "--skip-go-build"], { env: { ...process.env, PLUGIN_DOWNLOAD_URL: downloadURL } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
  distLog = run.stderr;
  if (run.code !== 0) throw new Error(`tools/release/dist.sh failed (${run.code}):\n${distLog}`);
  expect(run.stdout.trim()).toBe(out);
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

let venvMade: string | undefined;
/** A fresh venv with the built wheel and PyPI's `pulumi` at the CLI's version (made once, for two tests). */
function wheelVenv(): string {
  if (venvMade) return venvMade;
  const venv = path.join(work, "venv");
  execFileSync("python3", ["-m", "venv", venv]);
  const wheel = path.join(out, `pulumi_cloudplatform-${pep440(VERSION)}-py3-none-any.whl`);
  execFileSync(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", wheel, `pulumi==${PULUMI_PY_VERSION}`], { stdio: ["ignore", "ignore", "inherit"] });
  venvMade = venv;
  return venv;
}

/**
 * A fresh machine's environment for the CLI: an empty PULUMI_HOME, Node.js and the system on
 * PATH (no plugin), no update check or registry look-up (nothing leaves 127.0.0.1), and
 * automatic plugin acquisition on.
 */
function freshMachineEnv(home: string): Record<string, string> {
  return { PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_REGISTRY_RESOLVE: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false", PATH: path.dirname(process.execPath) + path.delimiter + "/usr/bin:/bin" };
}

test("SHA256SUMS lists exactly the published files with their hashes, all from package.json's version", () => {
  const expected = [
    `pulumi-cloudplatform-${VERSION}.tgz`,
    ...archives.TARGETS.map((t) => archives.archiveName(VERSION, t.os, t.arch)),
    `pulumi_cloudplatform-${pep440(VERSION)}-py3-none-any.whl`,
    `pulumi_cloudplatform-${pep440(VERSION)}.tar.gz`,
    `cloudplatform-${VERSION}.jar`,
    `cloudplatform-${VERSION}.pom`,
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

test("the Java SDK's jar holds the classes and the version.txt and plugin.json its Utilities read, with the release's version and download URL", () => {
  const jar = path.join(out, `cloudplatform-${VERSION}.jar`);
  const entry = (name: string) => execFileSync("unzip", ["-p", jar, `io/github/pulumicloudplatform/cloudplatform/${name}`], { encoding: "utf8" });
  expect(entry("version.txt").trim()).toBe(VERSION);
  expect(JSON.parse(entry("plugin.json"))).toEqual({ resource: true, name: "cloudplatform", version: VERSION, server: downloadURL });
  expect(execFileSync("unzip", ["-l", jar], { encoding: "utf8" })).toContain("io/github/pulumicloudplatform/cloudplatform/StorageEvent.class");
  const pom = fs.readFileSync(path.join(out, `cloudplatform-${VERSION}.pom`), "utf8");
  expect(pom).toContain(`<groupId>io.github.pulumi-cloudplatform</groupId>\n  <artifactId>cloudplatform</artifactId>\n  <version>${VERSION}</version>`);
});

test("the npm tarball holds the compiled package and no tests, build stamps or .ts sources", () => {
  const files = tarList(path.join(out, `pulumi-cloudplatform-${VERSION}.tgz`)).map((f) => f.replace(/^package\//, ""));
  for (const must of ["package.json", "README.md", "bin/pulumi-resource-cloudplatform", "dist/provider/plugin/main.js", "dist/sdk/nodejs/index.d.ts", "PulumiPlugin.yaml"]) expect(files).toContain(must);
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

test("the wheel installs into a fresh venv and imports, knowing its version and the plugin download URL; the sdist holds the package", () => {
  const venv = wheelVenv();
  const probe = [
    "import json, importlib.metadata as md, importlib.resources as res, pulumi_cloudplatform as cp",
    "from pulumi_cloudplatform import _utilities",
    "print(json.dumps({'file': cp.__file__, 'dist': md.version('pulumi_cloudplatform'), 'sdk': _utilities.get_version(),",
    "  'classes': [cp.K8sClusterUpgrade.__name__, cp.StorageEvent.__name__], 'lookup': callable(cp.get_regions),",
    "  'url': _utilities.get_plugin_download_url(), 'plugin': json.loads(res.files('pulumi_cloudplatform').joinpath('pulumi-plugin.json').read_text())}))",
  ].join("\n");
  const seen = JSON.parse(execFileSync(path.join(venv, "bin", "python"), ["-c", probe], { encoding: "utf8", cwd: work })) as Record<string, unknown>;
  expect(seen).toEqual({
    file: expect.stringContaining(path.join(venv, "lib")),
    dist: pep440(VERSION),
    sdk: VERSION,
    classes: ["K8sClusterUpgrade", "StorageEvent"],
    lookup: true,
    url: downloadURL,
    plugin: { resource: true, name: "cloudplatform", version: VERSION, server: downloadURL },
  });

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
  // The committed schema plus the URL this build was made with.
  const servedSchema = JSON.parse(schema.stdout) as Record<string, unknown>;
  expect(servedSchema).toEqual({ ...SCHEMA, pluginDownloadURL: downloadURL });
  expect(SCHEMA.version).toBe(VERSION);
  expect((SCHEMA as Record<string, unknown>).pluginDownloadURL).toBeUndefined();
});

/**
 * Runs tests/integration/programs/python-plugin/acquire_program.py (`up` then `destroy`) in the
 * wheel's venv on a fresh machine (an empty PULUMI_HOME of its own) against a new simulator.
 */
async function runFreshMachineProgram(): Promise<{ stdout: string; output: string; failed: boolean; home: string; storageWrites: number }> {
  const venv = wheelVenv();
  const dir = fs.mkdtempSync(path.join(work, "fresh-ci-"));
  const home = path.join(dir, "home");
  for (const d of ["home", "backend"]) fs.mkdirSync(path.join(dir, d));
  const sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  try {
    const result = await new Promise<{ stdout: string; stderr: string; failed: boolean }>((resolve) =>
      execFile(
        path.join(venv, "bin", "python"),
        [path.join(REPO_ROOT, "tests/integration/programs/python-plugin/acquire_program.py")],
        {
          cwd: dir,
          maxBuffer: 64 * 1024 * 1024,
          env: {
            ...freshMachineEnv(home),
            CLOUDPLATFORM_BASE_URL: sim.url,
            CLOUDPLATFORM_TEST_API_KEY: sim.apiKey,
            PULUMI_ROOT: pulumiRoot(),
            BACKEND_DIR: path.join(dir, "backend"),
            PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE,
          },
        },
        (err, stdout, stderr) => resolve({ stdout, stderr, failed: err !== null }),
      ),
    );
    const storageWrites = sim.requests().filter((r) => r.method === "POST" && r.path.startsWith("/storage/")).length;
    return { stdout: result.stdout, output: result.stdout + result.stderr, failed: result.failed, home, storageWrites };
  } finally {
    await sim.close();
  }
}

test("a fresh CI machine: a Python program on the wheel runs `pulumi up` and the engine downloads the plugin from the stamped URL", async () => {
  const host = archives.hostTarget();
  served.length = 0;
  const result = await runFreshMachineProgram();
  expect({ failed: result.failed, tail: result.failed ? result.output.slice(-4000) : "" }).toEqual({ failed: false, tail: "" });
    const steps = Object.fromEntries(
      result.stdout
        .split("\n")
        .filter((l) => l.startsWith("RESULT "))
        .map((l) => JSON.parse(l.slice("RESULT ".length)) as { step: string } & Record<string, unknown>)
        .map((s) => [s.step, s]),
    );
    expect(steps["sdk"]).toEqual({ step: "sdk", downloadUrl: downloadURL, version: VERSION });
    expect(steps["up"]).toMatchObject({ changes: { create: 2 }, outputs: { region: 76, uuid: expect.any(String) } });
    expect(steps["up"]?.["stdout"]).toContain("Downloading provider: cloudplatform");
    expect(steps["destroy"]).toMatchObject({ changes: { delete: 2 } });
    // Downloaded once, this machine's archive, from the stamped URL; installed where the engine keeps plugins.
    expect(served).toEqual([`/${archives.archiveName(VERSION, host.os, host.arch)}`]);
    expect(fs.existsSync(path.join(result.home, "plugins", `resource-cloudplatform-v${VERSION}`, archives.launcherFor(host.os).name))).toBe(true);
    expect(result.storageWrites).toBe(1);
});

/**
 * A YAML project as a user commits it for a fresh CI machine: examples/yaml-quickstart's
 * Pulumi.yaml and the package declaration `pulumi package add cloudplatform` writes for YAML
 * (name, version and the schema's pluginDownloadURL), here written from this build's values.
 */
function freshYamlProject(dir: string): string {
  const program = path.join(dir, "program");
  fs.mkdirSync(path.join(program, "sdks"), { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, "examples/yaml-quickstart/Pulumi.yaml"), path.join(program, "Pulumi.yaml"));
  fs.writeFileSync(path.join(program, "sdks", `cloudplatform-${VERSION}.yaml`), `packageDeclarationVersion: 1\nname: cloudplatform\nversion: ${VERSION}\ndownloadUrl: ${downloadURL}\n`);
  return program;
}

test("a fresh CI machine: the YAML quickstart with its package declaration runs `pulumi up` and the engine downloads the plugin from the stamped URL", async () => {
  const host = archives.hostTarget();
  served.length = 0;
  const dir = fs.mkdtempSync(path.join(work, "fresh-yaml-"));
  const program = freshYamlProject(dir);
  const home = path.join(dir, "home");
  fs.mkdirSync(home);
  const env = { ...freshMachineEnv(home), PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`, PULUMI_CONFIG_PASSPHRASE: TEST_PASSPHRASE };
  fs.mkdirSync(path.join(dir, "backend"));
  const sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  const cli = async (args: string[]) => {
    const res = await runPulumi([...args, "--stack", "ci", "--non-interactive", "--color", "never"], program, env);
    if (res.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${res.code}):\n${res.stdout}${res.stderr}`);
    return { stdout: res.stdout, text: res.stdout + res.stderr };
  };
  try {
    await cli(["stack", "init"]);
    await cli(["config", "set", "cloudplatform:baseUrl", sim.url]);
    await cli(["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey]);
    const up = await cli(["up", "--yes", "--skip-preview"]);
    // Installed before the program runs: the YAML host names the package (from its declaration) to the engine.
    expect(up.text).toContain(`Downloading plugin cloudplatform-${VERSION}: done`);
    const outputs = JSON.parse((await cli(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject(QUICKSTART_UP_OUTPUTS);
    expect(served).toEqual([`/${archives.archiveName(VERSION, host.os, host.arch)}`]);
    expect(fs.existsSync(path.join(home, "plugins", `resource-cloudplatform-v${VERSION}`, archives.launcherFor(host.os).name))).toBe(true);
    await cli(["destroy", "--yes", "--skip-preview"]);
    // Still the one download: the installed plugin serves the destroy.
    expect(served).toHaveLength(1);
  } finally {
    await sim.close();
  }
});

test("an SDK naming a wrong URL: `pulumi up` fails with the CLI's message naming the URL it tried and the install command", async () => {
  // The wheel's venv, its two copies of the URL pointed at a path the server does not have (as
  // a release whose archives were not uploaded there would be).
  const pkg = execFileSync(path.join(wheelVenv(), "bin", "python"), ["-c", "import os, pulumi_cloudplatform as cp; print(os.path.dirname(cp.__file__))"], { encoding: "utf8" }).trim();
  const wrongURL = `${downloadURL}no-such-release/`;
  for (const file of ["pulumi-plugin.json", "_utilities.py"]) {
    const full = path.join(pkg, file);
    const text = fs.readFileSync(full, "utf8");
    expect(text).toContain(`"${downloadURL}"`);
    fs.writeFileSync(full, text.replace(`"${downloadURL}"`, `"${wrongURL}"`));
  }
  const host = archives.hostTarget();
  const result = await runFreshMachineProgram();
  expect(result.failed).toBe(true);
  // The CLI's own message (docs/installation-configuration.md quotes it).
  expect(result.output).toContain(
    `error: Could not automatically download and install resource plugin 'pulumi-resource-cloudplatform' at version v${VERSION}, install the plugin using \`pulumi plugin install resource cloudplatform v${VERSION} --server ${wrongURL.replace(/\/$/, "")}\``,
  );
  expect(result.output).toContain(`404 HTTP error fetching plugin from ${wrongURL}${archives.archiveName(VERSION, host.os, host.arch)}`);
  expect(result.storageWrites).toBe(0);
  expect(fs.existsSync(path.join(result.home, "plugins", `resource-cloudplatform-v${VERSION}`))).toBe(false);
});

test("`pulumi plugin install resource cloudplatform <version> --server <url>` installs from the same URL; a wrong URL fails naming the URL it tried", async () => {
  const host = archives.hostTarget();
  const home = fs.mkdtempSync(path.join(work, "pulumi-home-server-"));
  const install = await runPulumi(["plugin", "install", "resource", "cloudplatform", VERSION, "--server", downloadURL], work, freshMachineEnv(home));
  expect({ code: install.code, stderr: install.stderr }).toEqual({ code: 0, stderr: expect.not.stringMatching(/error|warn/i) });
  expect(fs.existsSync(path.join(home, "plugins", `resource-cloudplatform-v${VERSION}`, archives.launcherFor(host.os).name))).toBe(true);

  const wrongURL = `${downloadURL}no-such-release/`;
  const emptyHome = fs.mkdtempSync(path.join(work, "pulumi-home-wrong-"));
  const wrong = await runPulumi(["plugin", "install", "resource", "cloudplatform", VERSION, "--server", wrongURL], work, freshMachineEnv(emptyHome));
  expect(wrong.code).not.toBe(0);
  // The CLI's own message (RELEASING.md and docs/installation-configuration.md quote it).
  expect(wrong.stderr).toContain(`error: [resource plugin cloudplatform-${VERSION}] downloading from ${wrongURL}: failed to download plugin: cloudplatform-${VERSION}: 404 HTTP error fetching plugin from ${wrongURL}${archives.archiveName(VERSION, host.os, host.arch)}`);
  expect(fs.existsSync(path.join(emptyHome, "plugins", `resource-cloudplatform-v${VERSION}`))).toBe(false);
});
