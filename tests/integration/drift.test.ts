/**
 * `cloudplatform-drift` for real: the built bin, the Pulumi CLI and the simulator, five stacks in
 * one run of one shared file backend:
 * - drift-dynamic/clean: untouched;
 * - drift-dynamic/drift: one event's limit changed and another event deleted out of band;
 * - drift-dynamic/error: a wrong API key in its config (the report refreshes with the program's
 *   providers, configured from the current config, so the wrong key is refused at the first read);
 * - drift-python/blocked (a Python program on the generated SDK, so the engine uses the
 *   cloudplatform plugin): its cluster upgraded past the declared version out of band;
 * - drift-python/quota: its cluster declared one version up, which the project's quota cannot
 *   hold (the preview-time quota check refuses it).
 * The same run names a directory that holds no project, whose stacks cannot be listed: reported
 * beside the stacks, not as one.
 * The run gives the four classes, the resources and fields, three report files (JSON checked
 * against its schema, JUnit parsed), exit 2; without the errored stack exit 1. Nothing is
 * written to the simulator or the backend (the only POST is the quota check, which changes
 * nothing), and no project's selected stack changes; no key in any output; never three previews
 * at once with --parallel 2; shards 1/3, 2/3, 3/3 list every stack once.
 *
 * The CLI built here has no Python language host (the other Python suites run inline programs),
 * and the drift bin previews projects from their directories, as users keep them: the suite puts
 * programs/drift-python/language_host.py on PATH as `pulumi-language-python`, a host built on
 * the Python SDK's own inline-program server (scripts/python-env.sh provides the venv). Needs
 * dist/ built.
 */
import { execFile, execFileSync } from "child_process";
import { createHash } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type RunningSimulator } from "../../simulator";
import type { DriftReport, StackResult } from "../../provider/drift/report";
import { admin, newKey } from "../unit/api/helpers";
import { schemaProblems } from "../unit/drift/schemaCheck";
import { offlineEnv, pulumiRoot, REPO_ROOT, runPulumi, suiteProcessEnv, writeProgramDir } from "./harness";
import { pluginPathDir } from "./pluginSupport";

jest.setTimeout(600_000);

const DRIFT_BIN = path.join(REPO_ROOT, "dist/provider/drift/cli.js");
const PROGRAMS = path.join(REPO_ROOT, "tests/integration/programs");
const WRONG_KEY = `wrong_${newKey()}`;

let sim: RunningSimulator;
let dir: string;
let env: Record<string, string>;
let dynamicDir: string;
let pythonDir: string;
let notAProjectDir: string;
let pathDir: string;

interface DriftRun {
  code: number;
  stdout: string;
  stderr: string;
  files: Record<"json" | "markdown" | "junit", string>;
}

/** Runs the drift bin with `args` (plus the three report files) in the suite's environment. */
function drift(args: string[], name: string): Promise<DriftRun> {
  const files = { json: path.join(dir, `${name}.json`), markdown: path.join(dir, `${name}.md`), junit: path.join(dir, `${name}.xml`) };
  const all = [DRIFT_BIN, ...args, "--json", files.json, "--markdown", files.markdown, "--junit", files.junit];
  return new Promise((resolve) =>
    execFile(process.execPath, all, { env: { ...process.env, ...env }, cwd: dir, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, "utf8") : "");
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr, files: { json: read(files.json), markdown: read(files.markdown), junit: read(files.junit) } });
    }),
  );
}

async function cli(cwd: string, args: string[]): Promise<string> {
  const run = await runPulumi([...args, "--non-interactive"], cwd, env);
  if (run.code !== 0) throw new Error(`pulumi ${args.join(" ")} failed (${run.code}):\n${run.stdout}${run.stderr}`);
  return run.stdout;
}

/** Creates stack `stack` of the project in `cwd`, configured for the simulator (and `config`), and runs `up`. */
async function deployed(cwd: string, stack: string, config: Record<string, string> = {}): Promise<void> {
  await cli(cwd, ["stack", "init", stack]);
  await cli(cwd, ["config", "set", "cloudplatform:baseUrl", sim.url, "--stack", stack]);
  await cli(cwd, ["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey, "--stack", stack]);
  for (const [key, value] of Object.entries(config)) await cli(cwd, ["config", "set", key, value, "--stack", stack]);
  await cli(cwd, ["up", "--yes", "--skip-preview", "--stack", stack]);
}

/** sha256 of every file under `under` (the suite's backend by default: the state, its backups and history), by path. */
function snapshot(under = path.join(dir, "backend")): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else out.set(path.relative(dir, full), createHash("sha256").update(fs.readFileSync(full, "latin1")).digest("hex"));
    }
  };
  walk(under);
  return out;
}

function byKey(report: DriftReport): Map<string, StackResult> {
  return new Map(report.stacks.map((s) => [`${s.project}/${s.stack}`, s]));
}

/** Most stacks whose previews overlapped in time, from the report's start times and durations. */
function mostAtOnce(stacks: readonly StackResult[]): number {
  const points = stacks.flatMap((s) => {
    const start = Date.parse(s.startedAt);
    return [
      { t: start, d: 1 },
      { t: start + s.durationMs, d: -1 },
    ];
  });
  points.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const p of points) most = Math.max(most, (now += p.d));
  return most;
}

let full: DriftRun;
let before: Map<string, string>;
let after: Map<string, string>;
let writes: string[];
let selectionsBefore: Map<string, string>;
let selectionsAfter: Map<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 30 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-drift-"));
  for (const d of ["backend", "home"]) fs.mkdirSync(path.join(dir, d));
  pathDir = pluginPathDir();
  const venv = execFileSync("bash", [path.join(REPO_ROOT, "scripts/python-env.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const host = path.join(pathDir, "pulumi-language-python");
  fs.writeFileSync(host, `#!/bin/sh\nexec "${path.join(venv, "bin", "python")}" "${path.join(PROGRAMS, "drift-python/language_host.py")}" "$@"\n`, { mode: 0o755 });
  const suite = suiteProcessEnv();
  env = {
    ...offlineEnv(path.join(dir, "home")),
    ...suite,
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PATH: [pathDir, path.join(pulumiRoot(), "bin"), suite.PATH].join(path.delimiter),
  };
  dynamicDir = path.join(dir, "drift-dynamic");
  writeProgramDir(dynamicDir, "drift-dynamic", fs.readFileSync(path.join(PROGRAMS, "drift-dynamic/index.js"), "utf8"));
  pythonDir = path.join(dir, "drift-python");
  fs.mkdirSync(pythonDir);
  for (const f of ["Pulumi.yaml", "__main__.py"]) fs.copyFileSync(path.join(PROGRAMS, "drift-python", f), path.join(pythonDir, f));
  notAProjectDir = path.join(dir, "not-a-project");
  fs.mkdirSync(notAProjectDir);

  await Promise.all([
    deployed(dynamicDir, "clean"),
    deployed(dynamicDir, "drift"),
    deployed(dynamicDir, "error"),
    deployed(pythonDir, "blocked"),
    deployed(pythonDir, "quota", { stagingVersion: "v1.29.8" }),
  ]);

  const events = sim.state().storageEvents;
  const eventOf = (storage: string, name: string) => events.find((e) => e.storage_name === storage && e.name === name)!;
  await admin(sim.url, "PATCH", `/events/${eventOf("drift-drift", "reaching_used_space").uuid}`, { bytes: 7 });
  await admin(sim.url, "DELETE", `/events/${eventOf("drift-drift", "reaching_used_traffic").uuid}`);
  await admin(sim.url, "PATCH", "/clusters/1/76/demo-cluster", { version: "v1.32.1" });
  await cli(dynamicDir, ["config", "set", "--secret", "cloudplatform:apiKey", WRONG_KEY, "--stack", "error"]);
  // One version up, which project 2's quota (4 VMs, 3 in use) cannot hold during the rolling replacement.
  await cli(pythonDir, ["config", "set", "stagingVersion", "v1.30.4", "--stack", "quota"]);

  // A stack that is not the last one each project previews, so a run that selected stacks would change it.
  await cli(dynamicDir, ["stack", "select", "clean"]);
  await cli(pythonDir, ["stack", "select", "blocked"]);
  selectionsBefore = snapshot(path.join(dir, "home", "workspaces"));
  before = snapshot();
  await admin(sim.url, "DELETE", "/requests");
  full = await drift(["--cwd", dynamicDir, "--cwd", notAProjectDir, "--cwd", pythonDir, "--all-stacks"], "full");
  writes = sim.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  after = snapshot();
  selectionsAfter = snapshot(path.join(dir, "home", "workspaces"));
});

afterAll(async () => {
  await sim?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (pathDir) fs.rmSync(pathDir, { recursive: true, force: true });
});

test("five stacks in one run: every class, exit 2", () => {
  expect(full.code).toBe(2);
  const report = JSON.parse(full.files.json) as DriftReport;
  expect(Object.fromEntries([...byKey(report)].map(([k, s]) => [k, s.class]))).toEqual({
    "drift-dynamic/clean": "clean",
    "drift-dynamic/drift": "drift",
    "drift-dynamic/error": "error",
    "drift-python/blocked": "drift-blocked",
    "drift-python/quota": "drift-blocked",
  });
  expect(report.counts).toEqual({ clean: 1, drift: 1, "drift-blocked": 2, error: 1 });
  expect(report.exitCode).toBe(2);
});

test("a directory whose stacks cannot be listed is reported beside the stacks, not as one", () => {
  const report = JSON.parse(full.files.json) as DriftReport;
  expect(report.listingErrors).toEqual([{ cwd: notAProjectDir, error: expect.stringContaining(notAProjectDir) }]);
  expect(report.stacks.map((s) => s.cwd)).not.toContain(notAProjectDir);
  expect(full.stdout).toContain(`cannot list the stacks of ${notAProjectDir}: `);
  expect(full.files.markdown).toContain(`- \`${notAProjectDir}\`: `);
});

test("drift names the resources and fields, state against live (dynamic path)", () => {
  const s = byKey(JSON.parse(full.files.json)).get("drift-dynamic/drift")!;
  expect(s.refusals).toEqual([]);
  expect(s.resources.map((r) => ({ name: r.name, live: r.live, plannedOp: r.plannedOp, fields: r.fields }))).toEqual([
    { name: "space", live: "modified", plannedOp: "update", fields: [{ field: "bytes", state: 1000, live: 7, declared: 1000 }] },
    { name: "traffic", live: "deleted", plannedOp: "create", fields: [] },
  ]);
  expect(byKey(JSON.parse(full.files.json)).get("drift-dynamic/clean")!.resources).toEqual([]);
});

test("drift-blocked carries the refusal code and the cluster's versions (plugin path)", () => {
  const s = byKey(JSON.parse(full.files.json)).get("drift-python/blocked")!;
  expect(s.refusals).toEqual([expect.objectContaining({ code: "CLOUDPLATFORM_DOWNGRADE", urn: expect.stringMatching(/::demo$/) })]);
  expect(s.refusals[0]?.message).toContain("version v1.30.4 is a downgrade: cluster demo-cluster runs v1.32.1");
  const demo = s.resources.find((r) => r.name === "demo");
  expect(demo).toMatchObject({ type: "cloudplatform:index:K8sClusterUpgrade", live: "modified" });
  expect(demo?.fields).toContainEqual(expect.objectContaining({ field: "version", state: "v1.30.4", live: "v1.32.1" }));
  expect(s.resources.map((r) => r.name)).toEqual(["demo"]);
});

test("an upgrade the project's quota cannot hold is drift-blocked with CLOUDPLATFORM_QUOTA; the refusal names the cluster and versions (plugin path)", () => {
  const s = byKey(JSON.parse(full.files.json)).get("drift-python/quota")!;
  expect(s.refusals).toEqual([expect.objectContaining({ code: "CLOUDPLATFORM_QUOTA", urn: expect.stringMatching(/::staging$/) })]);
  expect(s.refusals[0]?.message).toContain("cluster staging-cluster cannot be upgraded to v1.30.4 within its project's quota");
  expect(s.refusals[0]?.message).toContain("would exceed vm_count (limit 4, usage 3, requested 3)");
  // Nothing changed on the platform, and the engine plans no step for a resource whose check failed.
  expect(s.resources).toEqual([]);
});

test("error gives the server's message", () => {
  const s = byKey(JSON.parse(full.files.json)).get("drift-dynamic/error")!;
  expect(s.error).toContain("401");
  expect(s.error).toContain("The API key is missing or invalid");
});

test("the JSON report conforms to its schema; the JUnit report has a case per stack (the projects not listed first) and a failure per drifted resource", () => {
  expect(schemaProblems(JSON.parse(full.files.json))).toEqual([]);
  const cases = [...full.files.junit.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => ({
    key: `${m[1]}/${m[2]}`,
    failures: [...(m[4] ?? "").matchAll(/<failure type="([^"]+)"/g)].map((f) => f[1]),
    errors: [...(m[4] ?? "").matchAll(/<error /g)].length,
  }));
  expect(cases[0]).toEqual({ key: `${notAProjectDir}/list stacks`, failures: [], errors: 1 });
  expect(cases.slice(1).sort((a, b) => a.key.localeCompare(b.key))).toEqual([
    { key: "drift-dynamic/clean", failures: [], errors: 0 },
    { key: "drift-dynamic/drift", failures: ["drift", "drift"], errors: 0 },
    { key: "drift-dynamic/error", failures: [], errors: 1 },
    { key: "drift-python/blocked", failures: ["CLOUDPLATFORM_DOWNGRADE", "drift"], errors: 0 },
    { key: "drift-python/quota", failures: ["CLOUDPLATFORM_QUOTA"], errors: 0 },
  ]);
  expect(full.files.junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="cloudplatform-drift" tests="6" failures="3" errors="2"/);
  expect(full.files.markdown).toContain("| drift-dynamic/drift | 🟡 drift | 2 |");
  expect(full.files.markdown).toContain("| `space` | modified | update | bytes | 1000 | 7 | 1000 |");
});

test("the terminal shows a line per stack and the counts", () => {
  for (const line of ["clean         drift-dynamic/clean", "drift         drift-dynamic/drift", "drift-blocked drift-python/blocked", "drift-blocked drift-python/quota", "error         drift-dynamic/error"]) {
    expect(full.stdout).toContain(line);
  }
  expect(full.stdout).toContain("    space: bytes 1000 -> 7");
  expect(full.stdout).toMatch(/5 stacks in [\d.ms]+: 1 clean, 1 drift, 2 drift-blocked, 1 error; 1 project not listed; exit 2\n$/);
});

test("nothing was written to the platform or the state (the one POST is the upgrade's quota check, which changes nothing)", () => {
  expect(sim.requests().length).toBeGreaterThan(0);
  expect(writes).toEqual(["POST /cloud/v2/k8s/clusters/2/76/pools/check_limits"]);
  expect(sim.state().tasks).toEqual([]);
  expect(after).toEqual(before);
  expect(sim.state().clusters.find((c) => c.name === "demo-cluster")?.version).toBe("v1.32.1");
});

test("no project's selected stack changed", () => {
  expect(selectionsBefore.size).toBe(2);
  expect(selectionsAfter).toEqual(selectionsBefore);
});

test("--parallel 2 (the default) runs two previews at once, never three", () => {
  expect(mostAtOnce((JSON.parse(full.files.json) as DriftReport).stacks)).toBe(2);
});

test("no API key in any output", () => {
  const outputs = [full.stdout, full.stderr, ...Object.values(full.files)];
  for (const key of [sim.apiKey, WRONG_KEY]) expect(outputs.filter((o) => o.includes(key))).toEqual([]);
});

test("without the errored stack the run exits 1", async () => {
  const run = await drift(["--cwd", dynamicDir, "--stack", "clean", "--stack", "drift"], "noerror");
  expect(run.code).toBe(1);
  expect((JSON.parse(run.files.json) as DriftReport).counts).toEqual({ clean: 1, drift: 1, "drift-blocked": 0, error: 0 });
});

test("shards 1/3, 2/3 and 3/3 list every stack exactly once", async () => {
  const listed: string[] = [];
  for (const shard of ["1/3", "2/3", "3/3"]) {
    const run = await drift(["--cwd", dynamicDir, "--cwd", pythonDir, "--all-stacks", "--shard", shard, "--list"], `list${shard[0]}`);
    expect(run.code).toBe(0);
    listed.push(...run.stdout.split("\n").filter(Boolean));
  }
  expect(listed.sort()).toEqual(["drift-dynamic/clean", "drift-dynamic/drift", "drift-dynamic/error", "drift-python/blocked", "drift-python/quota"]);
});
