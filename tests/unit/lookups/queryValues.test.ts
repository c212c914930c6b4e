/**
 * The lookups send only query values the public API accepts (the query parameters' enums,
 * provider/lookups/queryEnums.ts), and still read any value an answer carries: an instance that
 * reports RESCUE, or a status no enum has, is returned; a cluster upgrade is found with the
 * platform's task type filter value `upgrade_k8s_cluster_v2`.
 */
import type { RunningSimulator } from "../../../simulator";
import { getInstancesLookup, getTasksLookup } from "../../../provider/lookups";
import { runLookup } from "../../../provider/lookups/runtime";
import { envFor, requestsTo, seed, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  const s = seed();
  const [first, second] = s.instances.filter((i: { project_id: number; region_id: number }) => i.project_id === 1 && i.region_id === 76);
  first.status = "RESCUE";
  second.status = "SOME_LATER_STATUS";
  sim = await start({ seed: s });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

test("statuses outside every enum in an answer are read as they come", async () => {
  const r = await runLookup(getInstancesLookup, { projectId: 1, regionId: 76 }, envFor(sim));
  expect(r.instances.map((i) => i.status)).toEqual(expect.arrayContaining(["RESCUE", "SOME_LATER_STATUS", "ACTIVE"]));
});

test("a status the filter takes is sent as given", async () => {
  const r = await runLookup(getInstancesLookup, { projectId: 1, regionId: 76, status: "ACTIVE" }, envFor(sim));
  expect(r.instances.length).toBeGreaterThan(0);
  expect(r.instances.every((i) => i.status === "ACTIVE")).toBe(true);
  expect(requestsTo(sim, "/cloud/v1/instances").map((q) => q.query["status"])).toEqual(["ACTIVE"]);
});

test("getTasks with taskType upgrade_k8s_cluster_v2 finds a cluster upgrade the simulator runs", async () => {
  const res = await fetch(`${sim.url}/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade`, {
    method: "POST",
    headers: { authorization: `apikey ${sim.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ version: "v1.31.2" }),
  });
  expect(res.status).toBe(200);
  const taskId = ((await res.json()) as { tasks: string[] }).tasks[0];
  const r = await runLookup(getTasksLookup, { projectId: 1, regionId: 76, taskType: "upgrade_k8s_cluster_v2" }, envFor(sim));
  expect(r.ids).toEqual([taskId]);
  // The task reports the spec's name; the filter took the platform's.
  expect(r.tasks[0]?.taskType).toBe("upgrade_k8s_cluster");
  expect(requestsTo(sim, "/cloud/v1/tasks").map((q) => q.query["task_type"])).toEqual(["upgrade_k8s_cluster_v2"]);
  const other = await runLookup(getTasksLookup, { projectId: 1, regionId: 76, taskType: "create_vm" }, envFor(sim));
  expect(other.ids).not.toContain(taskId);
});
