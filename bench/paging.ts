/**
 * Part of measurement 5: paging through 10,000 instances and 10,000 tasks over a real socket
 * against the simulator (seeded with `POST /__admin/bulk`), the lookups' own code path
 * (`runLookup`, the client, the pager) without a Pulumi engine.
 *
 * Why here and not in a test: the unit test of the same listings runs on an in-memory transport
 * (tests/unit/lookups/scale.test.ts) so its verdict never depends on spare CPU; what the real
 * socket, JSON and schema checks cost per 10,000 items is a figure, and figures live in bench/.
 */
import { LookupCache } from "../provider/lookups/cache";
import { getInstancesLookup } from "../provider/lookups/instances";
import { runLookup } from "../provider/lookups/runtime";
import { getTasksLookup } from "../provider/lookups/tasks";
import { errorText, progress, secs, startSim } from "./common";
import type { Section } from "./report";

const ITEMS = 10_000;

/** One listing: what it returned, the requests it took, its wall and CPU time. */
interface PagingRun {
  readonly label: string;
  readonly items: number;
  readonly requests: number;
  readonly ms: number;
  readonly cpuMs: number;
}

/** Measures both listings and adds their table to `section`. */
export async function measurePaging(section: Section): Promise<void> {
  const table = { headers: ["Listing", "Items", "Requests", "Wall time", "CPU time (this process)"], rows: [] as string[][] };
  section.tables.push(table);
  const sim = await startSim();
  try {
    await sim.admin("POST", "/__admin/bulk", {
      instances: { total: ITEMS, template: { name: "vm-{i}", project_id: 1, region_id: 76 } },
      tasks: { total: ITEMS, template: { task_type: "create_vm", project_id: 1, region_id: 76 } },
    });
    const env = { settings: { baseUrl: sim.sim.url, apiKey: sim.sim.apiKey }, cache: new LookupCache() };
    const runs: Array<[string, () => Promise<{ ids: readonly string[] }>]> = [
      ["getInstances, project 1 in region 76 (pages of 1,000)", () => runLookup(getInstancesLookup, { projectId: 1, regionId: 76 }, env)],
      ["getTasks create_vm, oldest first (pages of 1,000)", () => runLookup(getTasksLookup, { taskType: "create_vm", orderBy: "asc", pageSize: 1000 }, env)],
    ];
    for (const [label, list] of runs) {
      await sim.clearLog();
      const cpu = process.cpuUsage();
      const t0 = Date.now();
      const result = await list();
      const run: PagingRun = { label, items: result.ids.length, requests: sim.log().length, ms: Date.now() - t0, cpuMs: elapsedCpuMs(cpu) };
      table.rows.push([run.label, String(run.items), String(run.requests), secs(run.ms), secs(run.cpuMs)]);
      progress(`lookups: ${label}: ${run.items} items, ${run.requests} requests in ${secs(run.ms)}`);
    }
    section.notes.push("Paging: CPU time is this process's (client and simulator share it); the unit test of the same listings runs on an in-memory transport.");
  } catch (err) {
    section.notes.push(`ERROR (paging): ${errorText(err)}`);
    section.targets.push({ target: "paging measured", verdict: "ERROR", why: errorText(err) });
  } finally {
    await sim.sim.close();
  }
}

function elapsedCpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}
