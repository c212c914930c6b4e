/**
 * An API key rotated after `pulumi up`, on both paths (the TypeScript classes through the
 * dynamic provider; the `cloudplatform` plugin through the schema's tokens): a stack deployed
 * with key A, then the simulator restarted on its state file accepting only key B, and B set in
 * the stack's config, as a user rotating the key does.
 * - `pulumi refresh` and `pulumi destroy` read and delete with the provider settings saved at the
 *   last `up` (key A): refused, with one error naming that key and the way out
 *   (`pulumi refresh --run-program`, `pulumi up`), no stack trace, no second or third copy, no
 *   "Preview failed", no "set it with the Pulumi config" circle, and no key in any output;
 * - `pulumi preview` runs the program, so it uses key B: no changes;
 * - `cloudplatform-drift` refreshes with the program's providers (key B): the stack is clean;
 * - `pulumi refresh --run-program` reads with key B, and `pulumi destroy` after it deletes the event.
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

const PROGRAMS = {
  dynamic: `const pulumi = require("@pulumi/pulumi");
const { StorageEvent } = require("pulumi-cloudplatform");
new StorageEvent("ev", { name: "reaching_used_space", storageName: "rotation-" + pulumi.getProject(), bytes: 5 });
`,
  plugin: `const pulumi = require("@pulumi/pulumi");
class StorageEvent extends pulumi.CustomResource {
  constructor(name, props) { super("cloudplatform:index:StorageEvent", name, props); }
}
new StorageEvent("ev", { name: "reaching_used_space", storageName: "rotation-" + pulumi.getProject(), bytes: 5 });
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

/** Runs `op`, collecting its engine events; resolves with the events and the error's text. */
async function failing(op: (onEvent: (e: EngineEvent) => void) => Promise<unknown>): Promise<{ events: EngineEvent[]; text: string }> {
  const events: EngineEvent[] = [];
  const text = await op((e) => events.push(e)).then(
    () => "",
    (err: Error) => err.message,
  );
  return { events, text };
}

/** The refusal is told once, names the key and the way out, and nothing else repeats it. */
function expectOneClearRefusal(name: PathName, events: readonly EngineEvent[], text: string): void {
  expect(text).not.toBe("");
  const diagnostics = events.flatMap((e) => (e.diagnosticEvent ? [e.diagnosticEvent.message] : []));
  const refusals = diagnostics.filter((m) => m.includes("401 AuthenticationError"));
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toContain(NAMES_KEY[name]);
  expect(refusals[0]).toContain(WAY_OUT);
  expect(diagnostics.filter((m) => /^\s+at /m.test(m) || m.includes("Preview failed") || m.includes("set it with the Pulumi config"))).toEqual([]);
  for (const key of [KEY_A, KEY_B]) expect(`${text}\n${diagnostics.join("\n")}`).not.toContain(key);
}

describe.each(PATHS)("%s path, after the key was rotated", (name) => {
  test("refresh is refused once, naming the key saved at the last up and what to do, with no stack trace", async () => {
    const { events, text } = await failing((onEvent) => stacks[name].stack.refresh({ color: "never", onEvent }));
    expectOneClearRefusal(name, events, text);
    expect(eventsOf(name)).toHaveLength(1);
  });

  test("preview runs the program with the current config: no changes", async () => {
    const preview = await stacks[name].stack.preview({ color: "never" });
    expect(preview.changeSummary).toEqual({ same: 2 });
  });

  test("destroy is refused the same way, and the event stays", async () => {
    const { events, text } = await failing((onEvent) => stacks[name].stack.destroy({ color: "never", onEvent }));
    expectOneClearRefusal(name, events, text);
    expect(eventsOf(name)).toHaveLength(1);
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

  test("refresh --run-program reads with the new key, and destroy then deletes the event", async () => {
    const refreshed = await stacks[name].stack.refresh({ color: "never", runProgram: true });
    expect(refreshed.summary.resourceChanges).toEqual({ same: 2 });
    await stacks[name].stack.destroy({ color: "never" });
    expect(eventsOf(name)).toEqual([]);
  });
});
