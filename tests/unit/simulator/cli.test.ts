/**
 * The CLI: transpiles the simulator with the package's compiler options into a temporary
 * directory (the shared dist/ is left to `make build`), spawns
 * `node <out>/simulator/cli.js --port 0`, reads the URL and key it prints, and sweeps every
 * endpoint once.
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import { parseArgs } from "../../../simulator/cli";
import { call } from "./helpers";
import { CPU_BOUND_MS } from "../cpuBound";

const ROOT = path.resolve(__dirname, "../../..");
let CLI = "";

let child: ChildProcess | undefined;
let url = "";
let key = "";
let stderr = "";
let dir = "";

/**
 * Transpiles the simulator (it imports nothing else of the repository) with the compiler
 * options of tsconfig.json into `outDir`, its seed JSON beside it, and returns the path of
 * cli.js. Why transpile only, file by file: a second of work instead of a type-checking build
 * that takes many seconds on a busy machine; `make typecheck` checks the types, as it does for
 * every test (ts-jest only transpiles too).
 */
function transpileSimulator(outDir: string): string {
  const { config } = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
  const compilerOptions = { ...options, sourceMap: false, inlineSources: false, declaration: false };
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of files(path.join(ROOT, "simulator"))) {
    const out = path.join(outDir, path.relative(ROOT, file));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    if (file.endsWith(".json")) fs.copyFileSync(file, out);
    if (!file.endsWith(".ts")) continue;
    const { outputText } = ts.transpileModule(fs.readFileSync(file, "utf8"), { compilerOptions, fileName: file });
    fs.writeFileSync(out.replace(/\.ts$/, ".js"), outputText);
  }
  return path.join(outDir, "simulator", "cli.js");
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-cli-"));
  CLI = transpileSimulator(path.join(dir, "build"));
  expect(fs.existsSync(CLI)).toBe(true);
  expect(fs.readFileSync(CLI, "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  child = spawn(process.execPath, [CLI, "--port", "0", "--api-key", "cli-key", "--time-scale", "1000", "--state-file", path.join(dir, "s.json")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const stdout = await new Promise<string>((resolve, reject) => {
    let out = "";
    child?.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (/api key: .+\n/.test(out)) resolve(out);
    });
    child?.on("exit", (code) => reject(new Error(`cli exited with ${String(code)}: ${stderr}`)));
  });
  const m = /cloudplatform-simulator listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
  url = m?.[1] ?? "";
  key = /api key: (\S+)/.exec(stdout)?.[1] ?? "";
}, CPU_BOUND_MS);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("prints the URL and the key given", () => {
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(key).toBe("cli-key");
});

test("sweeps every endpoint", async () => {
  const get = (p: string) => call(url, "GET", p, { key });
  const expectOk = async (p: string) => {
    const r = await get(p);
    expect([p, r.status]).toEqual([p, 200]);
    return r;
  };
  await expectOk("/iam/clients/me");
  await expectOk("/cloud/v1/projects?limit=2");
  await expectOk("/cloud/v1/regions?display_name=Frankfurt");
  expect((await expectOk("/cloud/v1/instances/1/76?limit=5")).body.count).toBe(25);
  await expectOk("/cloud/v2/k8s/clusters/1/76");
  await expectOk("/cloud/v2/k8s/clusters/1/76/prod-cluster");
  await expectOk("/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade_versions");
  const up = await call(url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { key, body: { version: "v1.31.2" } });
  expect(up.status).toBe(200);
  await expectOk(`/cloud/v1/tasks/${up.body.tasks[0]}`);
  await expectOk("/cloud/v1/tasks?task_type=upgrade_k8s_cluster");
  const ev = await call(url, "POST", "/storage/notifications/v1/event", { key, body: { name: "reaching_used_requests", storage_name: "s", count: 3 } });
  expect(ev.status).toBe(200);
  expect((await call(url, "PUT", "/storage/notifications/v1/event", { key, body: { uuid: ev.body.uuid, name: "reaching_used_requests", count: 4 } })).status).toBe(204);
  expect((await expectOk("/storage/notifications/v1/events")).body.reaching_used_requests[0].count).toBe(4);
  expect((await call(url, "DELETE", "/storage/notifications/v1/event", { key, body: { uuid: ev.body.uuid } })).status).toBe(204);
  await expectOk("/dns/v2/analyze/example.com/delegation-status");
  await expectOk("/waap/reseller/ping");
  await expectOk("/waap/reseller/v1/prebilling/total/requests_clean?from=2026-09-01&to=2026-09-03&client_ids=101");
  await expectOk("/streaming/ai/tasks?ordering=status&page=2");
  expect((await get("/cloud/v1/projects")).headers.get("x-request-id")).toBeTruthy();
  expect((await call(url, "GET", "/cloud/v1/projects", { key: "wrong" })).status).toBe(401);
  const log = await call(url, "GET", "/__admin/requests", { key: null });
  expect(log.body.requests.length).toBeGreaterThanOrEqual(19);
  expect(stderr).toContain("GET /iam/clients/me -> 200");
  expect(stderr).not.toContain("cli-key");
});

/** Spawns the built CLI with `args` until it prints its key (or exits); returns its URL, output and exit code. */
async function spawnCli(args: string[]): Promise<{ url: string; out: string; err: string; code: number | null; stop: () => Promise<void> }> {
  const proc = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => {
    proc.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (/api key: .+\n/.test(out)) resolve(null);
    });
    proc.on("exit", (c) => resolve(c));
  });
  const stop = async () => {
    if (proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.on("exit", resolve));
    proc.kill("SIGTERM");
    await exited;
  };
  return { url: /listening on (\S+)/.exec(out)?.[1] ?? "", out, err, code, stop };
}

test("--dialect public-api starts the simulator in that dialect; a bad value exits 2 naming the allowed ones", async () => {
  const cli = await spawnCli(["--port", "0", "--quiet", "--dialect", "public-api"]);
  try {
    expect(cli.code).toBeNull();
    expect((await call(cli.url, "GET", "/__admin/dialect", { key: null })).body).toEqual({ dialect: "public-api" });
  } finally {
    await cli.stop();
  }
  const bad = await spawnCli(["--dialect", "loose"]);
  expect(bad.code).toBe(2);
  expect(bad.err).toContain('--dialect must be one of: regular, public-api (got "loose")');
  const help = await spawnCli(["--help"]);
  expect(help.code).toBe(0);
  expect(help.out).toContain("--dialect NAME");
}, CPU_BOUND_MS);

test("--ready-file holds the URL, the keys and the pid once it listens, before the printed lines", async () => {
  const file = path.join(dir, "ready.json");
  const cli = await spawnCli(["--port", "0", "--quiet", "--api-key", "ready-key", "--ready-file", file]);
  try {
    expect(cli.code).toBeNull();
    const ready = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(ready).toEqual({ url: cli.url, port: Number(new URL(cli.url).port), apiKey: "ready-key", readOnlyApiKey: expect.any(String), pid: expect.any(Number) });
    expect((await call(String(ready["url"]), "GET", "/iam/clients/me", { key: "ready-key" })).status).toBe(200);
  } finally {
    await cli.stop();
  }
});

test("parseArgs reads every flag and rejects unknown ones", () => {
  const { options, readyFile } = parseArgs(["--port", "8080", "--api-key=K", "--seed", "s.json", "--fault-seed", "42", "--time-scale", "10", "--state-file", "f.json", "--dialect", "public-api", "--reseller-paths", "spec", "--ready-file", "r.json", "--quiet"]);
  expect(options).toMatchObject({ port: 8080, apiKey: "K", seed: "s.json", faultSeed: 42, timeScale: 10, stateFile: "f.json", dialect: "public-api", resellerPaths: "spec", log: false });
  expect(() => parseArgs(["--reseller-paths", "all"])).toThrow('--reseller-paths must be one of: both, public, spec (got "all")');
  expect(readyFile).toBe("r.json");
  expect(() => parseArgs(["--fault-seed", "1.5"])).toThrow(/--fault-seed needs a non-negative integer/);
  expect(() => parseArgs(["--nope"])).toThrow(/unknown option/);
  expect(() => parseArgs(["--port"])).toThrow(/needs a value/);
  expect(() => parseArgs(["--time-scale", "fast"])).toThrow(/number/);
});
