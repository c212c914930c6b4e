/**
 * Ctrl-C during a long upgrade wait, on both paths, with the real CLI as a child process and a
 * simulator whose upgrade task takes ten minutes (it is finished through the admin API once the
 * next `up` polls it):
 *
 * - plugin path: one SIGINT; the engine calls the plugin's `Cancel`, the wait ends at once and
 *   `pulumi` exits (bound: 10 s, generous: this checks the protocol, not speed);
 * - dynamic path: the dynamic-provider host answers `Cancel` itself and never tells the
 *   provider, so the engine keeps waiting; a second SIGINT ends the run.
 *
 * Either way the platform's task runs on. After the clean-up users are told to do (`pulumi
 * cancel` if the stack is locked, `pulumi refresh --clear-pending-creates`), the next `up`
 * waits for that same task: one upgrade POST in all, and a preview after it plans nothing.
 */
import * as fs from "fs";
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { killSession, liveSessionMembers, spawnPulumi, until, type CliRun } from "../integration/cliProcess";
import { createTestStack, pulumiRoot, writeProgramDir, type TestStack } from "../integration/harness";
import { pluginPathDir } from "../integration/pluginSupport";
import {
  CLUSTER,
  expectNoChanges,
  expectQuickstartApplied,
  handled,
  requestLog,
  SEED_VERSION,
  simConfig,
  TARGET_VERSION,
  UPGRADE_PATH,
  writeQuickstartProgramDir,
  type Sim,
} from "./support";

jest.setTimeout(600_000);

/** The protocol's bound on how long `pulumi` may take to end after the SIGINT that ends it. */
const EXIT_BOUND_MS = 10_000;

let sim: Sim;
let root: string;
let pathDir: string;
let live: CliRun | undefined;

beforeAll(async () => {
  // 0.05x: the upgrade task's 30 simulated seconds take ten real minutes.
  sim = await startSimulator({ apiKey: newKey(), timeScale: 0.05 });
  root = pulumiRoot();
  pathDir = pluginPathDir();
});
afterAll(async () => {
  if (live) killSession(live.sid);
  await sim?.close();
  fs.rmSync(pathDir, { recursive: true, force: true });
});

const cluster = () => sim.state().clusters.find((c) => c.name === CLUSTER)!;
const lastSeq = () => Math.max(0, ...sim.requests().map((r) => r.seq));
const polls = (taskId: string, after = 0) => sim.requests().filter((r) => r.path === `/cloud/v1/tasks/${taskId}` && r.seq > after);

/** Resolves true when the run ends within `ms`, false otherwise. */
function endsWithin(run: CliRun, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([run.exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * Starts `pulumi up` of the stack and returns once the upgrade task it started has been polled
 * three times (a few seconds into the wait), with the task's id.
 */
async function upInsideTheWait(t: TestStack): Promise<{ run: CliRun; taskId: string }> {
  const run = spawnPulumi(root, ["up", "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", "test"], t.programDir, t.envVars);
  live = run;
  await until("the upgrade POST", () => handled(sim.requests(), "POST", UPGRADE_PATH).length > 0, 180_000, run.output);
  const taskId = cluster().task_id;
  if (!taskId) throw new Error(`the upgrade POST left no task on the cluster; output:\n${run.output()}`);
  await until("three polls of the upgrade task", () => polls(taskId).length >= 3, 60_000, run.output);
  return { run, taskId };
}

/**
 * The documented clean-up, then the next `up`: it must wait for `taskId` (finished through the
 * admin API once polled) and send no upgrade POST of its own. Returns the up's output.
 */
async function cleanUpAndUpAgain(t: TestStack, taskId: string): Promise<string> {
  await t.stack.cancel().catch(() => undefined); // only needed when the stack is still locked
  await t.stack.refresh({ clearPendingCreates: true, color: "never" });
  expect(cluster().task_id).toBe(taskId); // the platform's task ran on meanwhile
  const seq = lastSeq();
  let output = "";
  const [up] = await Promise.all([
    t.stack.up({ color: "never", onOutput: (s) => (output += s) }),
    (async () => {
      await until("the next up to poll the same task", () => polls(taskId, seq).length > 0, 180_000, () => output);
      await admin(sim, "POST", `/tasks/${taskId}/finish`);
    })(),
  ]);
  expect(up.summary.result).toBe("succeeded");
  expect(output).toContain(`an operation is already running on the cluster (task ${taskId})`);
  expect(cluster().version).toBe(TARGET_VERSION);
  expect(handled(await requestLog(sim), "POST", UPGRADE_PATH)).toHaveLength(1);
  await expectNoChanges(t.stack);
  return output;
}

const PLUGIN_PROGRAM = [
  `// One K8sClusterUpgrade through the cloudplatform plugin, declared as a generated SDK would.`,
  `const pulumi = require("@pulumi/pulumi");`,
  `const computed = { clusterId: undefined, status: undefined, previousVersion: undefined, upgradePath: undefined, taskIds: undefined };`,
  `const upgrade = new pulumi.CustomResource("cloudplatform:index:K8sClusterUpgrade", "cluster-version", { projectId: 1, regionId: 76, clusterName: ${JSON.stringify(CLUSTER)}, version: ${JSON.stringify(TARGET_VERSION)}, ...computed });`,
  `exports.clusterRunning = upgrade.version;`,
  "",
].join("\n");

test("plugin path: one SIGINT ends the upgrade wait and pulumi; the next up waits for the same task: one POST in all", async () => {
  await admin(sim, "POST", "/reset");
  const t = await createTestStack({
    projectName: "ctrl-c-plugin",
    config: simConfig(sim),
    writeProgram: (dir) => writeProgramDir(dir, "ctrl-c-plugin", PLUGIN_PROGRAM),
    envVars: { PATH: `${pathDir}:${process.env.PATH ?? ""}` },
  });
  try {
    const { run, taskId } = await upInsideTheWait(t);
    const interruptedAt = Date.now();
    process.kill(run.proc.pid!, "SIGINT");
    const ended = await endsWithin(run, EXIT_BOUND_MS);
    expect({ ended, output: ended ? "" : run.output() }).toEqual({ ended: true, output: "" });
    // eslint-disable-next-line no-console
    console.log(`[ctrl-c] plugin path: pulumi ended ${Date.now() - interruptedAt} ms after one SIGINT`);
    live = undefined;
    expect(run.output()).toMatch(/cancelled by the engine \(an interrupt, or another resource's failure that stopped the run\): (demo-cluster: )?Stopped waiting for task/);
    expect(cluster()).toMatchObject({ version: SEED_VERSION, task_id: taskId });

    await cleanUpAndUpAgain(t, taskId);
  } finally {
    if (live) killSession(live.sid);
    live = undefined;
    t.discard(); // the next test resets the simulator (the last closes it)
  }
});

test("dynamic path: the first SIGINT waits for the provider, a second ends the run; the next up resumes with one POST in all", async () => {
  await admin(sim, "POST", "/reset");
  const t = await createTestStack({ projectName: "ctrl-c-dynamic", config: simConfig(sim), writeProgram: (dir) => writeQuickstartProgramDir(dir, "ctrl-c-dynamic") });
  try {
    const { run, taskId } = await upInsideTheWait(t);
    process.kill(run.proc.pid!, "SIGINT");
    await until("the CLI to announce the cancellation", () => /press \^C again/i.test(run.output()), 30_000, run.output);
    const secondAt = Date.now();
    process.kill(run.proc.pid!, "SIGINT");
    const ended = await endsWithin(run, EXIT_BOUND_MS);
    expect({ ended, output: ended ? "" : run.output() }).toEqual({ ended: true, output: "" });
    // eslint-disable-next-line no-console
    console.log(`[ctrl-c] dynamic path: pulumi ended ${Date.now() - secondAt} ms after the second SIGINT`);
    // The dynamic provider, left waiting, ends by itself once its engine is gone.
    await until("the run's processes to end", () => liveSessionMembers(run.sid).length === 0, 60_000, run.output);
    live = undefined;
    expect(cluster()).toMatchObject({ version: SEED_VERSION, task_id: taskId });

    await cleanUpAndUpAgain(t, taskId);
    expectQuickstartApplied(sim);
  } finally {
    if (live) killSession(live.sid);
    live = undefined;
    t.discard(); // the next test resets the simulator (the last closes it)
  }
});
