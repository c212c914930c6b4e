/**
 * Measurement 11: what K8sClusterUpgrade's guards add (the quota check at preview, the health
 * wait after each step, the soak) to a `preview` and an `up` of one cluster and of the
 * five-cluster fleet of examples/fleet-upgrade (three waves, each `dependsOn` the one before).
 *
 * Each operation runs twice on a fresh simulator at 60x (an upgrade task takes 0.5 s): with the
 * guards as shipped, and with the simulator answering the quota check's endpoint 404 as a
 * platform without it would (the check then costs that one request and a warning per region and
 * run, and nothing else). The fastest of `BENCH_REPEATS` rounds counts; requests come from the
 * simulator's log. The health wait has no switch: when the cluster is healthy at the read made
 * after each task anyway, it adds no request, which the request counts show. A last run gives the
 * fleet `soakSeconds` to show what the watch costs on top.
 */
import * as cloud from "pulumi-cloudplatform";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { countKinds, formatCounts, progress, secs, startSim, timed, withStack, type Sim } from "./common";
import { logged } from "./operations";
import type { Section, Table } from "./report";

/** Simulated seconds per real second: an upgrade task (31 simulated seconds) takes about 0.5 s. */
const TIME_SCALE = 60;

/** The fleet of the default seed (project 3, region 38), in its waves. */
const FLEET_WAVES = [["staging-ingest"], ["canary-ingest"], ["prod-ingest", "prod-query", "prod-reports"]];

/** One scenario: a program and the project and region of its quota check. */
interface Scenario {
  name: string;
  program: (soakSeconds: number) => PulumiFn;
  checkPath: string;
}

const ONE: Scenario = {
  name: "one cluster (prod-cluster, v1.30.4 -> v1.31.2)",
  program: (soakSeconds) => async () => {
    new cloud.K8sClusterUpgrade("upgrade", { projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2", soakSeconds });
  },
  checkPath: "/cloud/v2/k8s/clusters/1/76/pools/check_limits",
};

const FLEET: Scenario = {
  name: "fleet of five in three waves (project 3, v1.30.4 -> v1.31.2)",
  program: (soakSeconds) => async () => {
    let previous: cloud.K8sClusterUpgrade[] = [];
    for (const wave of FLEET_WAVES) {
      previous = wave.map(
        (clusterName) =>
          new cloud.K8sClusterUpgrade(`${clusterName}-version`, { projectId: 3, regionId: 38, clusterName, version: "v1.31.2", soakSeconds }, { dependsOn: previous }),
      );
    }
  },
  checkPath: "/cloud/v2/k8s/clusters/3/38/pools/check_limits",
};

/** What one round of one variant measured. */
interface Round {
  previewMs: number;
  upMs: number;
  previewLog: ReturnType<Sim["log"]>;
  upLog: ReturnType<Sim["log"]>;
}

/** A preview then an up of `scenario` on a fresh simulator; `unserved` plays the platform without the quota check. */
async function round(scenario: Scenario, unserved: boolean, soakSeconds: number): Promise<Round> {
  const sim = await startSim({ timeScale: TIME_SCALE });
  try {
    if (unserved) await sim.admin("POST", "/__admin/unserved", { path: scenario.checkPath });
    return await withStack(scenario.program(soakSeconds), sim.sim, async (stack) => {
      let previewMs = 0;
      let upMs = 0;
      const previewLog = await logged(sim, async () => (previewMs = (await timed(() => stack.preview({ color: "never" }))).ms));
      const upLog = await logged(sim, async () => {
        const up = await timed(() => stack.up({ color: "never" }));
        if (up.result.summary.result !== "succeeded") throw new Error(`up ${up.result.summary.result}`);
        upMs = up.ms;
      });
      return { previewMs, upMs, previewLog, upLog };
    });
  } finally {
    await sim.sim.close();
  }
}

/** The fastest of `repeats` rounds (by preview plus up). */
async function fastest(scenario: Scenario, unserved: boolean, repeats: number, soakSeconds = 0): Promise<Round> {
  let best: Round | undefined;
  for (let i = 0; i < repeats; i++) {
    const r = await round(scenario, unserved, soakSeconds);
    progress(`guards: ${scenario.name}, ${unserved ? "check not served" : "guards"}${soakSeconds ? `, soak ${soakSeconds}s` : ""}: preview ${secs(r.previewMs)}, up ${secs(r.upMs)}`);
    if (!best || r.previewMs + r.upMs < best.previewMs + best.upMs) best = r;
  }
  return best as Round;
}

/** Adds the two rows (preview, up) of one scenario to `table`. */
async function scenarioRows(scenario: Scenario, repeats: number, table: Table): Promise<void> {
  const guards = await fastest(scenario, false, repeats);
  const without = await fastest(scenario, true, repeats);
  const diff = (a: number, b: number) => `${a >= b ? "+" : ""}${((a - b) / 1000).toFixed(1)} s`;
  table.rows.push(
    [scenario.name, "preview", secs(guards.previewMs), secs(without.previewMs), diff(guards.previewMs, without.previewMs), formatCounts(countKinds(guards.previewLog)), formatCounts(countKinds(without.previewLog))],
    [scenario.name, "up", secs(guards.upMs), secs(without.upMs), diff(guards.upMs, without.upMs), formatCounts(countKinds(guards.upLog)), formatCounts(countKinds(without.upLog))],
  );
}

/** Measures both scenarios, then the fleet's up with a soak, and renders the section. */
export async function upgradeGuardsSection(): Promise<Section> {
  const repeats = Math.max(1, Number(process.env.BENCH_REPEATS ?? 2) || 2);
  const table: Table = {
    headers: ["Scenario", "Operation", "With the guards", "Quota check not served (404)", "Difference", "Requests with the guards", "Requests without the check"],
    rows: [],
  };
  await scenarioRows(ONE, repeats, table);
  await scenarioRows(FLEET, repeats, table);
  const soakSeconds = 5;
  const soaked = await fastest(FLEET, false, 1, soakSeconds);
  const plain = await fastest(FLEET, false, 1);
  const soakTable: Table = {
    headers: ["Fleet up", "Time", "Cluster reads (GET)", "Requests"],
    rows: [
      ["soakSeconds 0", secs(plain.upMs), String(countKinds(plain.upLog).get("cluster read (GET)") ?? 0), formatCounts(countKinds(plain.upLog))],
      [`soakSeconds ${soakSeconds}`, secs(soaked.upMs), String(countKinds(soaked.upLog).get("cluster read (GET)") ?? 0), formatCounts(countKinds(soaked.upLog))],
    ],
  };
  return {
    title: "11. Upgrade guards: quota check, health, soak",
    method:
      `A preview and an up of one K8sClusterUpgrade and of the five-cluster fleet in three waves (examples/fleet-upgrade's shape), simulator at ${TIME_SCALE}x (a task takes 0.5 s), ` +
      `each on a fresh simulator, the fastest of ${repeats} rounds: with the guards, and with the quota check's endpoint answered 404 (a platform without it). Then the fleet's up with soakSeconds ${soakSeconds} against 0 (one round each).`,
    tables: [table, soakTable],
    notes: [
      "The quota check is one POST per pool of each planned upgrade, at the check of preview and again at the check of up; without the endpoint it is one 404 per region and run, then a warning.",
      "The health wait adds no request when the cluster is healthy at the read made after each task (it replaced the read that checked `Provisioned`); the soak adds a cluster read every poll (1 s, growing to 15 s) for soakSeconds, per wave, since each wave waits for the soak of the one before.",
      "The check's own cost is one short request against the simulator, well below what separates two rounds of one variant on a shared machine (see the load average): read the differences in wall time as noise unless they exceed a second, and the request counts as exact.",
    ],
    targets: [{ target: "what the guards add, for information", verdict: "INFO" }],
  };
}
