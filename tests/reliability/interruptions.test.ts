/**
 * Interruptions: `pulumi up` of the quickstart (a real program directory, the CLI a child
 * process) is SIGKILLed, with its language host and dynamic provider, at four points:
 *
 * 1. before the upgrade POST (the up's read of `upgrade_versions` is held by latency);
 * 2. while the upgrade task runs;
 * 3. after the task finished, before the engine recorded the resource (the final cluster
 *    read is held by latency).
 *
 * A kill while a StorageEvent POST is in flight is in killedRuns.test.ts: its recovery takes
 * one explicit step from the user (adopting the event), so it does not converge on its own.
 *
 * Each point is hit by watching what the simulator reports (its request log, and the requests it
 * holds in flight), never by sleeping. Then
 * the pending operations are cleared as Pulumi's docs tell users (export, drop
 * `pending_operations`, import), `up` runs again and must converge with no write acted on
 * twice, and a final preview must plan nothing.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { startSimulator } from "../../simulator";
import { admin, newKey } from "../unit/api/helpers";
import { killRun, killSession, liveSessionMembers, spawnPulumi, until, type CliRun } from "../integration/cliProcess";
import { clearPendingOperations, createTestStack, pulumiRoot, resourcesByName } from "../integration/harness";
import {
  CLUSTER,
  expectNoChanges,
  expectNoDuplicateWrites,
  expectQuickstartApplied,
  handled,
  printSummary,
  count,
  requestLog,
  SEED_VERSION,
  simConfig,
  TARGET_VERSION,
  UPGRADE_PATH,
  writeQuickstartProgramDir,
  type Sim,
} from "./support";

jest.setTimeout(600_000);

const PROJECT = "reliability-killed";
const CLUSTER_PATH = `/cloud/v2/k8s/clusters/1/76/${CLUSTER}`;
/**
 * How long latency holds a request at the server; the kill lands inside this window. Long
 * enough for a busy machine (the suite runs beside another timing-sensitive one) to notice the
 * held request and kill: a kill needs no wait of its own, so only the case that holds every
 * cluster call pays the hold on its reads before the kill point.
 */
const HOLD_MS = 5_000;

/** The simulator of the running test: `fast` (10x), or `slow` (1x) for the points around the running task. */
let sim: Sim;
let fast: Sim;
let slow: Sim;
let root: string;
let live: CliRun | undefined;
const tried: string[] = [];
const converged: string[] = [];

beforeAll(async () => {
  // 10x: an upgrade task runs 3 s. The points around the running task use 1x (30 s, far longer
  // than a CLI restart or a held answer) and finish the task through the admin API.
  fast = await startSimulator({ apiKey: newKey(), timeScale: 10 });
  slow = await startSimulator({ apiKey: newKey(), timeScale: 1 });
  sim = fast;
  root = pulumiRoot();
});

afterAll(async () => {
  if (live) killSession(live.sid);
  await fast?.close();
  await slow?.close();
  count((c) => {
    c.killPointsTried += tried.length;
    c.killPointsConverged += converged.length;
  });
  printSummary("interruptions", `kill points converged ${converged.length}/${tried.length}: ${converged.join(", ")}`);
});

const clusterNow = () => sim.state().clusters.find((c) => c.name === CLUSTER)!;
const logged = (method: string, p: string) => sim.requests().filter((r) => r.method === method && r.path === p);

/**
 * One kill point: a fresh stack, `faults` set, `pulumi up` spawned, `waitForKillPoint` returns
 * when to kill; then `atKill` checks the state the kill left, and the stack is brought to
 * convergence by clearing pending operations and running `up` once more.
 */
async function killPoint(
  name: string,
  faults: Record<string, unknown> | undefined,
  waitForKillPoint: (run: CliRun) => Promise<void>,
  atKill: (stack: Stack) => Promise<void>,
  duringNextUp?: () => Promise<void>,
): Promise<string> {
  tried.push(name);
  await admin(sim, "POST", "/reset");
  const t = await createTestStack({ projectName: PROJECT, config: simConfig(sim), writeProgram: (dir) => writeQuickstartProgramDir(dir, PROJECT) });
  const { stack, programDir, envVars } = t;
  try {
    if (faults) await admin(sim, "POST", "/faults", faults);

    // 1. `pulumi up` as a child process, SIGKILLed with all its processes at the kill point.
    const run = spawnPulumi(root, ["up", "--yes", "--skip-preview", "--non-interactive", "--color", "never", "--stack", "test"], programDir, envVars);
    live = run;
    await waitForKillPoint(run);
    const killed = await killRun(run);
    live = undefined;
    expect(liveSessionMembers(run.sid)).toEqual([]);
    // The dynamic provider was among the killed processes (and is gone with the rest).
    expect(killed.some((p) => /pulumi-resource-pulumi-nodejs|dynamic-provider/.test(p.args))).toBe(true);
    expect(killed.length).toBeGreaterThan(2);

    await atKill(stack);
    await admin(sim, "DELETE", "/faults");

    // 2. Clear what the killed run left (its lock, its pending operations) as the docs say.
    await stack.cancel().catch(() => undefined);
    await clearPendingOperations(stack);

    // 3. One more `up` converges: the quickstart applied exactly once.
    let output = "";
    const [up] = await Promise.all([stack.up({ color: "never", onOutput: (s) => (output += s) }), duringNextUp?.()]);
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs["clusterRunning"]?.value).toBe(TARGET_VERSION);
    expectQuickstartApplied(sim);
    expectNoDuplicateWrites(sim, await requestLog(sim));
    await expectNoChanges(stack);
    converged.push(name);
    return output;
  } finally {
    if (live) killSession(live.sid);
    live = undefined;
    await admin(sim, "DELETE", "/faults").catch(() => undefined);
    await stack.cancel().catch(() => undefined);
    t.discard(); // the next kill point resets the simulator
  }
}

/** True while the simulator reports a `method` request to `p` in flight and held by latency. */
const heldNow = (method: string, p: string) => sim.inFlight().some((r) => r.held && r.method === method && r.path === p);

test("killed before the upgrade POST: the next up sends it once", async () => {
  await killPoint(
    "before the upgrade POST",
    // Holds every `upgrade_versions` read. The up's check reads the cluster, then its permitted
    // versions (held here); create may reuse those reads and POST at once, so the last moment
    // the log can show before the POST is this held read.
    { latencyMs: HOLD_MS, path: `${CLUSTER_PATH}/upgrade_versions`, method: "GET" },
    (run) => until("the held read of the permitted versions", () => heldNow("GET", `${CLUSTER_PATH}/upgrade_versions`), 120_000, run.output),
    async () => {
      expect(logged("POST", UPGRADE_PATH)).toEqual([]);
      expect(clusterNow().version).toBe(SEED_VERSION);
      expect(clusterNow().task_id ?? null).toBeNull();
    },
  );
});

/** Runs one kill point on the `slow` (1x) simulator, then switches back to `fast`. */
async function onTheSlowSimulator(point: () => Promise<void>): Promise<void> {
  sim = slow;
  try {
    await point();
  } finally {
    sim = fast;
  }
}

test("killed while the upgrade task runs: the next up waits for that task instead of posting again", () =>
  onTheSlowSimulator(async () => {
    let running: string | undefined;
    let seqAtKill = 0;
    const output = await killPoint(
      "during the upgrade task",
      undefined,
      (run) => until("the upgrade POST", () => handled(sim.requests(), "POST", UPGRADE_PATH).length > 0, 120_000, run.output),
      async () => {
        running = clusterNow().task_id ?? undefined;
        expect(running).toBeDefined(); // killed while the task runs
        expect(clusterNow().version).toBe(SEED_VERSION);
        seqAtKill = Math.max(0, ...sim.requests().map((r) => r.seq));
      },
      // Once the next up polls the very task the killed run started, let it finish now.
      async () => {
        await until("the next up to poll the running task", () => sim.requests().some((r) => r.path === `/cloud/v1/tasks/${running}` && r.seq > seqAtKill), 120_000, () => "");
        await admin(sim, "POST", `/tasks/${running}/finish`);
      },
    );
    expect(output).toContain(`an operation is already running on the cluster (task ${running})`);
  }));

// At 1x the task runs 30 s, far longer than the hold on the upgrade POST's answer: the first
// poll finds it RUNNING, so the poll that sees it FINISHED comes after the test finishes it.
test("killed after the task finished but before the engine recorded it: the next up writes nothing more", () =>
  onTheSlowSimulator(async () => {
    await killPoint(
      "after the task, before the record",
      // Every call on the cluster is held; the read after the finished task is where the kill lands.
      { latencyMs: HOLD_MS, pathPrefix: CLUSTER_PATH },
      async (run) => {
        await until("the upgrade POST", () => handled(sim.requests(), "POST", UPGRADE_PATH).length > 0, 120_000, run.output);
        const taskId = clusterNow().task_id;
        if (!taskId) throw new Error("the upgrade POST left no task on the cluster");
        // Taken before the finish: a poll answered while the admin call's answer is on its way
        // back already sees FINISHED, and must count (CI once missed it when taken after).
        const beforeFinish = sim.requests().length ? Math.max(...sim.requests().map((r) => r.seq)) : 0;
        await admin(sim, "POST", `/tasks/${taskId}/finish`);
        // The provider reads the cluster only once a poll has seen the task FINISHED, so the held
        // cluster read below is the moment after the finish, whichever poll saw it.
        await until(
          "a task poll after the finish",
          () => sim.requests().some((r) => r.path === `/cloud/v1/tasks/${taskId}` && r.seq > beforeFinish),
          60_000,
          run.output,
        );
        await until("the held read of the cluster after the finish", () => heldNow("GET", CLUSTER_PATH), 60_000, run.output);
      },
      async (stack) => {
        expect(clusterNow().version).toBe(TARGET_VERSION);
        expect(clusterNow().task_id ?? null).toBeNull();
        // The engine never recorded the upgrade: only its pending create is in the state.
        expect((await resourcesByName(stack)).has("cluster-version")).toBe(false);
      },
    );
  }));
