/**
 * An API key rotated after `pulumi up`, on both paths (the TypeScript classes through the
 * dynamic provider; the `cloudplatform` plugin through the schema's tokens): a stack of two
 * events deployed with key A, then the simulator restarted on its state file accepting only key B, and B set in
 * the stack's config, as a user rotating the key does.
 * - `pulumi refresh` and `pulumi destroy` read and delete with the provider settings saved at the
 *   last `up` (key A): refused, the way out (`pulumi refresh --run-program`, `pulumi up`) and the
 *   key it was said once in the run, by the first resource refused; the other's error is short
 *   and points to it; no stack trace, no "Preview failed", no "set it with the Pulumi config"
 *   circle, and no key in any output;
 * - `pulumi preview` runs the program, so it uses key B: no changes;
 * - `cloudplatform-drift` refreshes with the program's providers (key B): the stack is clean;
 * - `pulumi refresh --run-program` reads with key B, and `pulumi destroy` after it deletes the events.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { DriftReport } from "../../provider/drift/report";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { newKey } from "../unit/api/helpers";
import { createTestStack, pulumiRoot, REPO_ROOT, writeProgramDir, type TestStack } from "./harness";
import { pluginPathDir } from "./pluginSupport";

jest.setTimeout(600_000);

const KEY_A = newKey();
const KEY_B = newKey();
const DRIFT_BIN = path.join(REPO_ROOT, "dist/provider/drift/cli.js");
const WAY_OUT = "run `pulumi refresh --run-program` (it reads with the current config; `pulumi destroy --run-program` deletes with it) or `pulumi up`";
const POINTER = "The API key is missing or invalid (what to do is in the error of the first resource this run refused).";

const PROGRAMS = {
  dynamic: `const pulumi = require("@pulumi/pulumi");
const { StorageEvent } = require("pulumi-cloudplatform");
new StorageEvent("ev", { name: "reaching_used_space", storageName: "rotation-" + pulumi.getProject(), bytes: 5 });
new StorageEvent("ev2", { name: "reaching_used_traffic", storageName: "rotation-" + pulumi.getProject(), bytes: 7 });
`,
  plugin: `const pulumi = require("@pulumi/pulumi");
class StorageEvent extends pulumi.CustomResource {
  constructor(name, props) { super("cloudplatform:index:StorageEvent", name, props); }
}
new StorageEvent("ev", { name: "reaching_used_space", storageName: "rotation-" + pulumi.getProject(), bytes: 5 });
new StorageEvent("ev2", { name: "reaching_used_traffic", storageName: "rotation-" + pulumi.getProject(), bytes: 7 });
`,
};
type PathName = keyof typeof PROGRAMS;
const PATHS: PathName[] = ["dynamic", "plugin"];

/** Which key a refused read or delete names: the plugin can tell; the dynamic provider cannot tell a `--run-program` run apart. */
const NAMES_KEY: Record<PathName, string> = {
  plugin: "This command used the API key saved in the stack's state at its last `pulumi up`, not the current config",
  dynamic: "Unless this command ran with `--run-program`, it used the API key saved in the stack's state at its last `pulumi up`",
};

let sim: RunningSimulator;
let dir: string;
let pathDir: string;
const stacks = {} as Record<PathName, TestStack>;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-rotation-"));
  const stateFile = path.join(dir, "simulator-state.json");
  sim = await startSimulator({ apiKey: KEY_A, stateFile });
  pathDir = pluginPathDir();
  for (const name of PATHS) {
    stacks[name] = await createTestStack({
      projectName: `rotation-${name}`,
      writeProgram: (programDir) => writeProgramDir(programDir, `rotation-${name}`, PROGRAMS[name]),
      config: { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: KEY_A, secret: true } },
      envVars: { PATH: [pathDir, path.join(pulumiRoot(), "bin"), process.env.PATH ?? ""].join(path.delimiter) },
    });
  }
  await Promise.all(PATHS.map((name) => stacks[name].stack.up({ color: "never" })));
  // The rotation: the platform accepts only key B now (same address, same objects), and the user sets B.
  const port = sim.port;
  await sim.close();
  sim = await startSimulator({ apiKey: KEY_B, stateFile, port });
  for (const name of PATHS) await stacks[name].stack.setConfig("cloudplatform:apiKey", { value: KEY_B, secret: true });
});

afterAll(async () => {
  for (const name of PATHS) stacks[name]?.discard();
  await sim?.close();
  if (pathDir) fs.rmSync(pathDir, { recursive: true, force: true });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const eventsOf = (name: PathName) => sim.state().storageEvents.filter((e) => e.storage_name === `rotation-rotation-${name}`);

/** What a failed run left: its engine events, the CLI's printed output, and the error's text. */
interface FailedRun {
  readonly events: EngineEvent[];
  readonly output: string;
  readonly text: string;
}

/** Runs `op`, collecting its engine events and printed output; resolves with them and the error's text. */
async function failing(op: (onEvent: (e: EngineEvent) => void, onOutput: (out: string) => void) => Promise<unknown>): Promise<FailedRun> {
  const events: EngineEvent[] = [];
  let output = "";
  const text = await op(
    (e) => events.push(e),
    (out) => (output += out),
  ).then(
    () => "",
    (err: Error) => err.message,
  );
  return { events, output, text };
}

const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * Both resources were refused; what to do is said once in the run: one diagnostic carries it (the
 * first refusal's), the other is short and points to it, and the printed output's diagnostics
 * section holds it once. Each row line that repeats it (the engine prints a resource's error on
 * its row too) is that same resource's.
 */
function expectOneClearRefusal(name: PathName, { events, output, text }: FailedRun): void {
  expect(text).not.toBe("");
  const diagnostics = events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent] : []));
  const refusals = diagnostics.filter((d) => d.message.includes("401 AuthenticationError"));
  expect(refusals).toHaveLength(2);
  const advised = refusals.filter((d) => d.message.includes(WAY_OUT));
  expect(advised).toHaveLength(1);
  expect(advised[0]?.message).toMatch(/^The API key is missing or invalid\. If you have set a new key since the last `pulumi up`, run `pulumi refresh --run-program`/);
  expect(advised[0]?.message).toContain(NAMES_KEY[name]);
  expect(refusals.filter((d) => d !== advised[0]).map((d) => d.message.startsWith(POINTER))).toEqual([true]);
  const summary = output.slice(output.indexOf("\nDiagnostics:"), output.indexOf("\nResources:"));
  expect(count(summary, WAY_OUT)).toBe(1);
  const advisedName = /::([^:]+)$/.exec(advised[0]?.urn ?? "")?.[1];
  for (const line of output.split("\n").filter((l) => l.includes(WAY_OUT) && !/^\s+error: /.test(l))) expect(line).toContain(` ${advisedName} `);
  expect(diagnostics.filter((d) => /^\s+at /m.test(d.message) || d.message.includes("Preview failed") || d.message.includes("set it with the Pulumi config"))).toEqual([]);
  for (const key of [KEY_A, KEY_B]) expect(`${text}\n${output}`).not.toContain(key);
}

describe.each(PATHS)("%s path, after the key was rotated", (name) => {
  test("refresh is refused; which key (the one saved at the last up) and what to do are said once in the run, with no stack trace", async () => {
    const run = await failing((onEvent, onOutput) => stacks[name].stack.refresh({ color: "never", onEvent, onOutput }));
    expectOneClearRefusal(name, run);
    expect(eventsOf(name)).toHaveLength(2);
  });

  test("preview runs the program with the current config: no changes", async () => {
    const preview = await stacks[name].stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ same: 3 });
  });

  test("destroy is refused the same way, and the events stay", async () => {
    const run = await failing((onEvent, onOutput) => stacks[name].stack.destroy({ color: "never", onEvent, onOutput }));
    expectOneClearRefusal(name, run);
    expect(eventsOf(name)).toHaveLength(2);
  });

  test("cloudplatform-drift refreshes with the current config: the stack is clean", async () => {
    const t = stacks[name];
    const json = path.join(t.dir, "drift.json");
    const code = await new Promise<number>((resolve) =>
      execFile(process.execPath, [DRIFT_BIN, "--cwd", t.programDir, "--all-stacks", "--json", json], { env: { ...process.env, ...t.envVars } }, (err) =>
        resolve(err ? Number((err as { code?: number }).code ?? 1) : 0),
      ),
    );
    const report = JSON.parse(fs.readFileSync(json, "utf8")) as DriftReport;
    expect(report.stacks.map((s) => [s.stack, s.class, s.error ?? ""])).toEqual([["test", "clean", ""]]);
    expect(code).toBe(0);
  });

  test("refresh --run-program reads with the new key, and destroy then deletes the events", async () => {
    const refreshed = await stacks[name].stack.refresh({ color: "never", runProgram: true });
    expect(refreshed.summary.resourceChanges).toEqual({ same: 3 });
    await stacks[name].stack.destroy({ color: "never" });
    expect(eventsOf(name)).toEqual([]);
  });
});
