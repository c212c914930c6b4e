/**
 * Runs of K8sClusterUpgrade against a simulator: the upgrade itself (requests, polls, the
 * delay between the task finishing and the provider noticing), then the operations on the
 * upgraded stack (preview unchanged, refresh, destroy) and an upgrade that is already done.
 *
 * Used by sections 1 (state size), 3 (requests per operation) and 4 (polling).
 */
import { errorText, opOptions, progress, secs, startSim, timed, withStack } from "./common";
import { logged, type OperationLog } from "./operations";
import { upgradeProgram } from "./programs";
import { measureStateSize, type ClassStateSize } from "./stateSize";

/** Simulated seconds of an upgrade task: NEW for 1, RUNNING for 30 (CONTRACT.md "Tasks"). */
export const UPGRADE_SIM_SECONDS = 31;

/** A task as the simulator stores it (epoch ms). */
export interface TaskTimes {
  id: string;
  taskType: string;
  createdAt: number;
  runAt: number;
  doneAt: number;
}

/** What one upgrade run measured. */
export interface UpgradeRun {
  timeScale: number;
  /** Real duration of an upgrade task at that time scale. */
  taskMs: number;
  upMs?: number;
  upgrade?: OperationLog;
  tasks: TaskTimes[];
  /** Operations after the upgrade (only in a full run). */
  others: OperationLog[];
  stateSize?: ClassStateSize;
  errors: string[];
}

const CLUSTER = "prod-cluster"; // v1.30.4 in the seed; v1.31.2 is the permitted next version
const TARGET = "v1.31.2";
/** Why an up reads the cluster more often than the API requires (seen in the request log). */
const DOUBLE_READ =
  "check validates the target against the live cluster (cluster read + permitted versions), then create reads both again before deciding; they are separate engine calls and the provider keeps no cache between them";
const NEWEST_CLUSTER = "edge-cluster"; // already at v1.32.1, the newest version

/**
 * Upgrades prod-cluster v1.30.4 -> v1.31.2 with the simulator's clock at `timeScale`.
 * With `full`, also measures the later operations and an upgrade already done.
 */
export async function runUpgrade(timeScale: number, full: boolean): Promise<UpgradeRun> {
  const taskMs = (UPGRADE_SIM_SECONDS / timeScale) * 1000;
  const run: UpgradeRun = { timeScale, taskMs, tasks: [], others: [], errors: [] };
  const sim = await startSim({ timeScale });
  const readBack = "cluster read (GET)";
  try {
    await withStack(upgradeProgram(CLUSTER, TARGET), sim.sim, async (stack) => {
      let upMs = 0;
      const upLog = await logged(sim, async () => {
        const up = await timed(() => stack.up(opOptions()));
        upMs = up.ms;
        if (up.result.summary.result !== "succeeded") throw new Error(`up ${up.result.summary.result}`);
      });
      run.upMs = upMs;
      run.upgrade = {
        label: `K8sClusterUpgrade: upgrade ${CLUSTER} one minor version (up, ${Math.round(taskMs / 1000)} s task)`,
        log: upLog,
        minimum: { [readBack]: 2, "upgrade versions (GET)": 1, "quota check (POST)": 1, "upgrade (POST)": 1 },
        pollsAllowed: true,
        why: DOUBLE_READ,
      };
      run.tasks = (sim.sim.state().tasks as unknown as Array<Record<string, unknown>>).map((t) => ({
        id: String(t.id),
        taskType: String(t.task_type),
        createdAt: Number(t.createdAt),
        runAt: Number(t.runAt),
        doneAt: Number(t.doneAt),
      }));
      progress(`upgrade at time scale ${timeScale} (task ${secs(taskMs)}): up ${secs(upMs)}, ${upLog.length} requests`);
      if (!full) return;
      try {
        run.stateSize = await measureStateSize(stack, "K8sClusterUpgrade");
      } catch (err) {
        run.errors.push(`state size: ${errorText(err)}`);
      }
      run.others.push({
        label: "K8sClusterUpgrade: preview of the unchanged stack",
        log: await logged(sim, () => stack.preview(opOptions())),
        minimum: {},
        judgeWritesOnly: true,
        why: "reads are the preview-time validation of the target against the live cluster",
      });
      run.others.push({
        label: "K8sClusterUpgrade: refresh",
        log: await logged(sim, () => stack.refresh(opOptions())),
        minimum: { [readBack]: 1 },
      });
      run.others.push({
        label: "K8sClusterUpgrade: destroy (forget the cluster)",
        log: await logged(sim, () => stack.destroy(opOptions())),
        minimum: {},
      });
    });
    if (full) {
      await withStack(upgradeProgram(NEWEST_CLUSTER, "v1.32.1"), sim.sim, async (stack) => {
        run.others.push({
          label: `K8sClusterUpgrade: already at the version (up, ${NEWEST_CLUSTER})`,
          log: await logged(sim, () => stack.up(opOptions())),
          minimum: { [readBack]: 1 },
          why: DOUBLE_READ,
        });
      });
    }
  } catch (err) {
    run.errors.push(errorText(err));
    progress(`upgrade at time scale ${timeScale} failed: ${errorText(err)}`);
  } finally {
    await sim.sim.close();
  }
  return run;
}
