/**
 * Nothing hangs a pipeline: a backend whose stack listing never answers (as Pulumi 3.248's
 * PostgreSQL backend with six or more stacks) and a preview that never ends, against a fake
 * `pulumi` on PATH. The run ends in bounded time with exit 2, the listing error names the backend
 * (its password redacted) and the way out, the stuck preview is an error result while the other
 * stack still runs, and no process the fake started is left alive.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { main } from "../../../provider/drift/cli";
import { isAlive } from "../../../provider/drift/processTree";
import type { DriftReport } from "../../../provider/drift/report";
import { fakePids, installFakePulumi } from "./fakePulumi";
import { schemaProblems } from "./schemaCheck";

// The bounds below (3s) leave the fake time to start its plugin on a loaded machine.
const BACKEND = "postgres://drift:s3cr3t-pw@127.0.0.1:1/state?sslmode=disable";

let dir: string;
let pidFile: string;
const saved = { PATH: process.env.PATH, PULUMI_BACKEND_URL: process.env.PULUMI_BACKEND_URL, FAKE_PULUMI_PIDS: process.env.FAKE_PULUMI_PIDS };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "drift-bounds-"));
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  pidFile = installFakePulumi(bin);
  fs.mkdirSync(path.join(dir, "project"));
  fs.writeFileSync(path.join(dir, "project", "Pulumi.yaml"), "name: hung\nruntime: nodejs\n");
  Object.assign(process.env, { PATH: `${bin}${path.delimiter}${saved.PATH}`, PULUMI_BACKEND_URL: BACKEND, FAKE_PULUMI_PIDS: pidFile });
});

afterEach(() => {
  for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  for (const pid of fakePids(pidFile)) isAlive(pid) && process.kill(pid, "SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the command in-process; what it wrote to stdout and stderr, its status and time. */
async function drift(args: string[]): Promise<{ code: number; text: string; ms: number }> {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => (written.push(String(chunk)), true);
  const out = jest.spyOn(process.stdout, "write").mockImplementation(capture);
  const err = jest.spyOn(process.stderr, "write").mockImplementation(capture);
  const started = Date.now();
  try {
    const code = await main(["--cwd", path.join(dir, "project"), ...args]);
    return { code, text: written.join(""), ms: Date.now() - started };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

test.each([
  ["--all-stacks", ["--all-stacks"]],
  ["the selected stack, --list", ["--list"]],
])("a listing that never answers (%s): exit 2 in bounded time, the backend named, the way out given, no process left", async (_, args) => {
  const json = path.join(dir, "report.json");
  const run = await drift([...args, "--list-timeout", "3s", "--json", json]);
  expect(run.code).toBe(2);
  expect(run.ms).toBeLessThan(20_000);
  expect(run.text).toContain(
    `cannot list the stacks of ${path.join(dir, "project")}: the backend postgres://drift:***@127.0.0.1:1/state?sslmode=disable ` +
      "did not list the stacks within 3s (--list-timeout); the listing was stopped. Name the stacks with --stack NAME",
  );
  expect(run.text).not.toContain("s3cr3t");
  expect(fakePids(pidFile)).toHaveLength(2);
  expect(fakePids(pidFile).filter(isAlive)).toEqual([]);
  if (args.includes("--list")) return;
  const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
  expect(schemaProblems(report)).toEqual([]);
  expect(report.listingErrors).toEqual([{ cwd: path.join(dir, "project"), error: expect.stringContaining("--stack NAME"), timedOut: true, backend: "postgres://drift:***@127.0.0.1:1/state?sslmode=disable" }]);
});

test("a preview that never ends is an error result of its stack; the other stack still runs; every report says so", async () => {
  const files = { json: path.join(dir, "r.json"), markdown: path.join(dir, "r.md"), junit: path.join(dir, "r.xml") };
  const run = await drift(["--stack", "stuck", "--stack", "ok", "--preview-timeout", "3s", "--json", files.json, "--markdown", files.markdown, "--junit", files.junit]);
  expect(run.code).toBe(2);
  expect(run.ms).toBeLessThan(20_000);
  const message = "the preview did not finish within 3s (--preview-timeout) and was stopped, with the processes it started";
  const report = JSON.parse(fs.readFileSync(files.json, "utf8")) as DriftReport;
  expect(schemaProblems(report)).toEqual([]);
  expect(report.stacks.map((s) => [s.stack, s.class, s.error, s.timedOut])).toEqual([
    ["stuck", "error", message, true],
    ["ok", "clean", undefined, undefined],
  ]);
  expect(run.text).toContain(message);
  expect(fs.readFileSync(files.markdown, "utf8")).toContain(message);
  expect(fs.readFileSync(files.junit, "utf8")).toContain(`<error type="timeout" message="${message}">`);
  expect(fakePids(pidFile)).toHaveLength(2);
  expect(fakePids(pidFile).filter(isAlive)).toEqual([]);
});
