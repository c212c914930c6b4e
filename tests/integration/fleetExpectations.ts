/**
 * What examples/fleet-upgrade (TypeScript and Python) must do against the simulator's default
 * seed, checked the same way for both: examples.test.ts (dynamic path) and
 * upgradeSafetyPlugin.test.ts (the Python program through the plugin).
 */
import type { SimState } from "../../simulator/state";

/** The waves of examples/fleet-upgrade on the default seed (project 3, region 38). */
export const FLEET_WAVES = [["staging-ingest"], ["canary-ingest"], ["prod-ingest", "prod-query", "prod-reports"]];

/**
 * Checks that the fleet's upgrade tasks ran wave after wave: each wave's tasks were created only
 * after every task of the wave before it had ended (the simulator's own times, in ms), and every
 * cluster of the fleet now runs `version`.
 */
export function expectWavesInOrder(state: SimState, version: string): void {
  const tasksOf = (names: string[]) => state.tasks.filter((task) => task.task_type === "upgrade_k8s_cluster" && names.includes(String(task.data?.["cluster_name"])));
  for (const [i, wave] of FLEET_WAVES.entries()) {
    expect({ wave: i + 1, tasks: tasksOf(wave).length }).toEqual({ wave: i + 1, tasks: wave.length });
    const before = FLEET_WAVES[i - 1];
    if (!before) continue;
    const lastEnd = Math.max(...tasksOf(before).map((task) => task.doneAt));
    const firstStart = Math.min(...tasksOf(wave).map((task) => task.createdAt));
    expect({ wave: i + 1, startsAfterTheWaveBefore: firstStart >= lastEnd }).toEqual({ wave: i + 1, startsAfterTheWaveBefore: true });
  }
  const fleet = FLEET_WAVES.flat();
  expect(state.clusters.filter((c) => fleet.includes(c.name)).map((c) => [c.name, c.version])).toEqual(fleet.map((name) => [name, version]));
}
