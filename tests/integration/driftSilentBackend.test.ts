/**
 * `cloudplatform-drift` with the real Pulumi CLI on a PostgreSQL backend that never answers: a
 * loopback TCP server that accepts the CLI's connections and says nothing (as a database
 * behind a stuck proxy does; Pulumi 3.248's own PostgreSQL backend hangs the same way listing six
 * or more stacks). The listing ends at `--list-timeout` with exit 2, the backend named (password
 * redacted) and the way out; the named stacks' previews, which wait on the same backend, end at
 * `--preview-timeout` as errors. Every connection the CLI opened is closed afterwards: nothing
 * it started is left running. Needs dist/ built.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as net from "net";
import * as os from "os";
import * as path from "path";
import type { DriftReport } from "../../provider/drift/report";
import { offlineEnv, pulumiRoot, REPO_ROOT, suiteProcessEnv } from "./harness";

jest.setTimeout(120_000);

const DRIFT_BIN = path.join(REPO_ROOT, "dist/provider/drift/cli.js");

let dir: string;
let server: net.Server;
let open: Set<net.Socket>;
let env: NodeJS.ProcessEnv;
let backend: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-drift-silent-"));
  fs.mkdirSync(path.join(dir, "home"));
  fs.mkdirSync(path.join(dir, "project"));
  fs.writeFileSync(path.join(dir, "project", "Pulumi.yaml"), "name: silent\nruntime: yaml\nresources: {}\n");
  open = new Set();
  server = net.createServer((socket) => {
    open.add(socket);
    // Read (and drop) what the CLI sends, so that its end of the connection is seen.
    socket.resume().on("error", () => undefined).on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  backend = `postgres://drift:pg-s3cret@127.0.0.1:${port}/state?sslmode=disable`;
  const suite = suiteProcessEnv();
  env = { ...process.env, ...offlineEnv(path.join(dir, "home")), ...suite, PULUMI_BACKEND_URL: backend, PATH: [path.join(pulumiRoot(), "bin"), suite.PATH].join(path.delimiter) };
});

afterAll(async () => {
  for (const s of open) s.destroy();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

function drift(args: string[]): Promise<{ code: number; stdout: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) =>
    execFile(process.execPath, [DRIFT_BIN, "--cwd", path.join(dir, "project"), ...args], { env }, (err, stdout) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, ms: Date.now() - started }),
    ),
  );
}

/** Waits until the server holds no connection (each closes when the process that opened it ends). */
async function connectionsClosed(): Promise<number> {
  for (let i = 0; i < 50 && open.size; i++) await new Promise((r) => setTimeout(r, 100));
  return open.size;
}

test("a listing that never answers: exit 2 after --list-timeout, the backend and --stack named, no connection left", async () => {
  const run = await drift(["--all-stacks", "--list-timeout", "5s"]);
  expect(run.code).toBe(2);
  expect(run.ms).toBeLessThan(30_000);
  const shown = backend.replace(":pg-s3cret@", ":***@");
  expect(run.stdout).toContain(`the backend ${shown} did not list the stacks within 5s (--list-timeout); the listing was stopped. Name the stacks with --stack NAME`);
  expect(run.stdout).not.toContain("pg-s3cret");
  expect(await connectionsClosed()).toBe(0);
});

test("previews that never answer: each stack an error after --preview-timeout, exit 2, no connection left", async () => {
  const json = path.join(dir, "previews.json");
  const run = await drift(["--stack", "a", "--stack", "b", "--parallel", "2", "--preview-timeout", "5s", "--json", json]);
  expect(run.code).toBe(2);
  expect(run.ms).toBeLessThan(30_000);
  const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
  expect(report.stacks.map((s) => [s.stack, s.class, s.timedOut])).toEqual([
    ["a", "error", true],
    ["b", "error", true],
  ]);
  expect(await connectionsClosed()).toBe(0);
});
