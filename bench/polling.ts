/**
 * Measurement 4: task polls per upgrade and the delay between the simulator finishing the
 * task and the provider noticing, at two task durations.
 *
 * The finish time is the simulator's own end time of the task (`doneAt`, epoch ms, the value
 * behind `finished_on`, which the API shows to the second only); the notice time is the first
 * poll of that task logged at or after it. The simulator runs in this process, so both clocks
 * are the same clock.
 */
import { recommendedIntervalMs } from "pulumi-cloudplatform/api";
import { secs } from "./common";
import type { UpgradeRun } from "./k8sUpgrade";
import { pollsOf } from "./operations";
import type { Section, Verdict } from "./report";

/** The allowed number of polls: what a fixed 2 s poll would make over the task, plus 2. */
export function pollBudget(taskMs: number): number {
  return Math.ceil(taskMs / 2000) + 2;
}

/** The report section from the upgrade runs. */
export function pollingSection(runs: UpgradeRun[]): Section {
  const intervalMs = recommendedIntervalMs("upgrade_k8s_cluster");
  const section: Section = {
    title: "4. Task polling of an upgrade",
    method:
      `One K8sClusterUpgrade (prod-cluster v1.30.4 -> v1.31.2) per simulator time scale. Polls = GET /cloud/v1/tasks/{id} of the upgrade task. Delay = first poll at or after the simulator's end time of the task, minus that end time. Targets: delay <= ${secs(intervalMs)} (the provider's polling ceiling for upgrade_k8s_cluster; the spec recommends 30 s for the nearest documented k8s task, cluster create); polls <= ceil(task duration / 2 s) + 2 (no more than a fixed 2 s poll would make).`,
    tables: [
      {
        headers: ["Task duration (real)", "Time scale", "Polls", "Poll target", "Delay finish -> noticed", "Delay target", "Poll gap around the finish", "Polls after finish", "up wall time", "Result"],
        rows: [],
      },
    ],
    notes: [],
    targets: [],
  };
  for (const run of runs) {
    const label = `upgrade task of ${secs(run.taskMs)}`;
    const task = run.tasks.find((t) => t.taskType === "upgrade_k8s_cluster");
    if (!run.upgrade || !task) {
      const why = run.errors.join("; ") || "no upgrade task was created";
      section.tables[0]!.rows.push([secs(run.taskMs), String(run.timeScale), "-", "-", "-", "-", "-", "-", "-", "ERROR"]);
      section.targets.push({ target: label, verdict: "ERROR", why });
      section.notes.push(`ERROR (${label}): ${why}`);
      continue;
    }
    const polls = pollsOf(run.upgrade.log, task.id);
    const times = polls.map((p) => Date.parse(p.time));
    const after = times.filter((t) => t >= task.doneAt);
    const before = times.filter((t) => t < task.doneAt);
    const noticed = after[0];
    const delay = noticed === undefined ? undefined : noticed - task.doneAt;
    const gap = noticed !== undefined && before.length ? noticed - before[before.length - 1]! : undefined;
    const budget = pollBudget(task.doneAt - task.createdAt);
    const pollsOk = polls.length <= budget;
    const delayOk = delay !== undefined && delay <= intervalMs;
    const verdict: Verdict = pollsOk && delayOk ? "OK" : "MISSED";
    section.tables[0]!.rows.push([
      secs(task.doneAt - task.createdAt),
      String(run.timeScale),
      String(polls.length),
      `<= ${budget}`,
      delay === undefined ? "never noticed" : secs(delay),
      `<= ${secs(intervalMs)}`,
      gap === undefined ? "-" : secs(gap),
      String(after.length),
      run.upMs === undefined ? "-" : secs(run.upMs),
      verdict,
    ]);
    const whys: string[] = [];
    if (!pollsOk) whys.push(`${polls.length} polls > ${budget}`);
    if (!delayOk) whys.push(delay === undefined ? "no poll after the finish" : `delay ${secs(delay)} > ${secs(intervalMs)}`);
    section.targets.push({ target: `${label}: few polls, delay <= ${secs(intervalMs)}`, verdict, why: whys.join("; ") || `${polls.length} polls, delay ${secs(delay ?? 0)}` });
    const offsets = times.map((t) => ((t - task.createdAt) / 1000).toFixed(1)).join(", ");
    section.notes.push(`${label}: polls at [${offsets}] s after the task was created; it finished at ${((task.doneAt - task.createdAt) / 1000).toFixed(1)} s.`);
    if (after.length > 1) section.notes.push(`${label}: ${after.length - 1} poll(s) after the one that saw the task finished.`);
  }
  return section;
}
