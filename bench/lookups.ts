/**
 * Measurement 5: requests made by 100 identical and 100 distinct lookups in one program run.
 *
 * The program runs in `pulumi preview` (lookups run in the program process during preview as
 * in up). Scenarios, one program run each: one `getProject({})` (what one call costs), 100
 * identical default-project lookups (half `getProject`, half `getProjectOutput`, all started
 * at once), 100 `getTask` lookups of distinct tasks (made beforehand through the simulator's
 * admin API, which is not logged). Then, without a program, paging through 10,000 instances
 * and tasks over a real socket (bench/paging.ts).
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import * as cloud from "pulumi-cloudplatform";
import { countKinds, errorText, formatCounts, opOptions, progress, secs, settle, startSim, timed, withStack } from "./common";
import { logged } from "./operations";
import { measurePaging } from "./paging";
import type { Section } from "./report";

interface Scenario {
  label: string;
  lookups: number;
  /** Requests the API needs at least: one call's worth per distinct lookup. */
  minimum: (one: number) => number;
  run: () => Promise<unknown>;
}

/** What one scenario cost. */
interface ScenarioResult {
  label: string;
  lookups: number;
  requests: number;
  kinds: string;
  minimum: number;
  ms: number;
  error?: string;
}

/** Runs the scenarios and returns the section. */
export async function lookupsSection(): Promise<Section> {
  const section: Section = {
    title: "5. Lookups in one program run",
    method:
      "One program run (`pulumi preview`) per scenario; requests counted from the simulator's log. Minimum: identical lookups cost what one costs; distinct lookups cost one lookup's requests each. Target: nothing beyond the minimum.",
    tables: [{ headers: ["Scenario", "Lookups", "Requests", "By kind", "Minimum", "Program run", "Result"], rows: [] }],
    notes: [],
    targets: [],
  };
  const sim = await startSim();
  const results: ScenarioResult[] = [];
  try {
    const taskIds: string[] = [];
    for (let i = 0; i < 100; i++) {
      const made = (await sim.admin("POST", "/__admin/tasks", { task_type: "create_vm", project_id: 1, region_id: 76 })) as { tasks: string[] };
      taskIds.push(made.tasks[0]!);
    }
    const scenarios: Scenario[] = [
      { label: "1 default-project lookup (the unit cost)", lookups: 1, minimum: (one) => one, run: () => cloud.getProject({}) },
      {
        label: "100 identical lookups (getProject / getProjectOutput of the default project)",
        lookups: 100,
        minimum: (one) => one,
        run: () =>
          Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? cloud.getProject({}) : settle(cloud.getProjectOutput({}))))),
      },
      { label: "1 task lookup (the unit cost)", lookups: 1, minimum: (one) => one, run: () => cloud.getTask({ taskId: taskIds[0]! }) },
      {
        label: "100 distinct lookups (getTask of 100 different tasks)",
        lookups: 100,
        minimum: (one) => 100 * one,
        run: () => Promise.all(taskIds.map((taskId) => cloud.getTask({ taskId }))),
      },
    ];
    let current: Scenario = scenarios[0]!;
    const program: PulumiFn = async () => {
      await current.run();
    };
    await withStack(program, sim.sim, async (stack) => {
      let unit = 1;
      for (const s of scenarios) {
        current = s;
        try {
          let ms = 0;
          const log = await logged(sim, async () => {
            ms = (await timed(() => stack.preview(opOptions()))).ms;
          });
          if (s.lookups === 1) unit = log.length;
          results.push({ label: s.label, lookups: s.lookups, requests: log.length, kinds: formatCounts(countKinds(log)), minimum: s.minimum(unit), ms });
          progress(`lookups: ${s.label}: ${log.length} requests in ${secs(ms)}`);
        } catch (err) {
          results.push({ label: s.label, lookups: s.lookups, requests: 0, kinds: "-", minimum: s.minimum(unit), ms: 0, error: errorText(err) });
        }
      }
    });
  } catch (err) {
    section.notes.push(`ERROR: ${errorText(err)}`);
    section.targets.push({ target: "lookups measured", verdict: "ERROR", why: errorText(err) });
  } finally {
    await sim.sim.close();
  }
  for (const r of results) {
    const verdict = r.error ? "ERROR" : r.requests <= r.minimum ? "OK" : "MISSED";
    section.tables[0]!.rows.push([r.label, String(r.lookups), r.error ? "-" : String(r.requests), r.kinds, String(r.minimum), r.error ? "-" : secs(r.ms), verdict]);
    if (r.lookups > 1) {
      section.targets.push({
        target: `${r.label.split(" (")[0]}: requests <= ${r.minimum}`,
        verdict,
        why: r.error ?? `${r.requests} requests`,
      });
    }
    if (r.error) section.notes.push(`ERROR (${r.label}): ${r.error}`);
  }
  await measurePaging(section);
  return section;
}
