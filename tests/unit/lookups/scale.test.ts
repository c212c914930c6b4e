/**
 * `getInstances` and `getTasks` over 10,000 items (seeded with `POST /__admin/bulk`): every page
 * once, no page past `maxResults` (and no item past it on the last page), and one progress line
 * per page when the list takes more than one page. Requests are counted from the simulator's
 * request log. Each page after the first starts 5 items early (the pager's overlap, which finds
 * its place in a list that changed between pages), so it brings 995 new items.
 */
import { getInstancesLookup } from "../../../provider/lookups/instances";
import { runLookup } from "../../../provider/lookups/runtime";
import { getTasksLookup } from "../../../provider/lookups/tasks";
import type { RunningSimulator } from "../../../simulator";
import { envFor, requestsTo, start } from "./helpers";

let sim: RunningSimulator;
let seededInstances = 0;
beforeAll(async () => {
  sim = await start();
  seededInstances = sim.state().instances.filter((i) => i.project_id === 1 && i.region_id === 76).length;
  const res = await fetch(`${sim.url}/__admin/bulk`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      instances: { total: 10000, template: { name: "vm-{i}", project_id: 1, region_id: 76 } },
      tasks: { total: 10000, template: { task_type: "create_vm", project_id: 1, region_id: 76 } },
    }),
  });
  expect(res.status).toBe(200);
});
afterAll(() => sim.close());
beforeEach(async () => {
  await fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });
});

function withProgress() {
  const lines: string[] = [];
  return { lines, env: { ...envFor(sim), progress: (m: string) => lines.push(m) } };
}

test("getInstances pages through 10,000 instances once each and reports every page", async () => {
  const { lines, env } = withProgress();
  const total = 10000 + seededInstances;
  const result = await runLookup(getInstancesLookup, { projectId: 1, regionId: 76 }, env);
  expect(result.instances).toHaveLength(total);
  expect(new Set(result.ids).size).toBe(total);
  const pages = 1 + Math.ceil((total - 1000) / 995);
  const requests = requestsTo(sim, "/cloud/v1/instances/1/76");
  expect(requests.map((r) => r.query.offset)).toEqual(Array.from({ length: pages }, (_, i) => String(i * 995)));
  expect(lines).toHaveLength(pages);
  expect(lines[0]).toBe(`getInstances: page 1 of ${pages} (1000 of ${total} instances)`);
  expect(lines[pages - 1]).toBe(`getInstances: page ${pages} of ${pages} (${total} of ${total} instances)`);
});

test("getInstances stops at maxResults: no further page, and the last page asks only for what is missing", async () => {
  const { lines, env } = withProgress();
  const result = await runLookup(getInstancesLookup, { projectId: 1, regionId: 76, maxResults: 2500 }, env);
  expect(result.instances).toHaveLength(2500);
  expect(requestsTo(sim, "/cloud/v1/instances/1/76").map((r) => [r.query.limit, r.query.offset])).toEqual([
    ["1000", "0"],
    ["1000", "995"],
    ["510", "1990"],
  ]);
  expect(lines).toEqual([
    "getInstances: page 1 of 3 (1000 of 2500 instances)",
    "getInstances: page 2 of 3 (1995 of 2500 instances)",
    "getInstances: page 3 of 3 (2500 of 2500 instances)",
  ]);
});

test("a lookup that takes one page reports nothing, and a small cap fetches only the cap", async () => {
  const { lines, env } = withProgress();
  const result = await runLookup(getTasksLookup, { projectId: 1, taskType: "create_vm", maxResults: 7 }, env);
  expect(result.tasks).toHaveLength(7);
  expect(requestsTo(sim, "/cloud/v1/tasks").map((r) => r.query.limit)).toEqual(["7"]);
  expect(lines).toEqual([]);
});

test("getTasks pages through 10,000 tasks in the requested order and stops at maxResults", async () => {
  const { lines, env } = withProgress();
  const all = await runLookup(getTasksLookup, { projectId: 1, taskType: "create_vm", orderBy: "asc", pageSize: 1000 }, env);
  expect(all.tasks).toHaveLength(10000);
  expect(new Set(all.ids).size).toBe(10000);
  const created = all.tasks.map((t) => Date.parse(t.createdOn ?? ""));
  expect(created.every((t, i) => i === 0 || t >= (created[i - 1] as number))).toBe(true);
  expect(requestsTo(sim, "/cloud/v1/tasks")).toHaveLength(11);
  expect(lines).toHaveLength(11);
  expect(lines[10]).toBe("getTasks: page 11 of 11 (10000 of 10000 tasks)");

  await fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });
  const capped = await runLookup(getTasksLookup, { projectId: 1, taskType: "create_vm", pageSize: 1000, maxResults: 1500 }, withProgress().env);
  expect(capped.tasks).toHaveLength(1500);
  expect(requestsTo(sim, "/cloud/v1/tasks").map((r) => [r.query.limit, r.query.offset])).toEqual([
    ["1000", "0"],
    ["505", "995"],
  ]);
});
