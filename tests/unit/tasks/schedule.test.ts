/**
 * The polling schedule: the spec's recommended intervals per task type and the fast start.
 */
import { DEFAULT_POLL_SCHEDULE, pollDelayMs, recommendedIntervalMs, resolvePollSchedule } from "../../../provider/tasks";
import { startSimulator } from "../../../simulator";
import { createClient } from "../../../provider/api";
import { newKey } from "../api/helpers";

test.each([
  ["create_vm", 5_000],
  ["create_volume", 5_000],
  ["create_network", 5_000],
  ["create_subnet", 5_000],
  ["delete_vm", 5_000],
  ["create_loadbalancer", 10_000],
  ["delete_bm_instance", 30_000],
  ["create_k8s_cluster_v2", 30_000],
  ["create_k8s_cluster", 30_000],
  ["upgrade_k8s_cluster", 15_000],
  ["upgrade_k8s_cluster_v2", 15_000],
  ["delete_k8s_cluster_v2", 30_000],
  ["something_new", 5_000],
  [undefined, 5_000],
])("ceiling for %s is %i ms", (type, ms) => {
  expect(recommendedIntervalMs(type)).toBe(ms);
});

test("starts at 1 s and grows to the ceiling", () => {
  const s = DEFAULT_POLL_SCHEDULE;
  expect([1, 2, 3, 4, 5, 6].map((n) => pollDelayMs(n, "create_vm", s))).toEqual([1000, 1500, 2250, 3375, 5000, 5000]);
  expect(pollDelayMs(20, "create_loadbalancer", s)).toBe(10_000);
  expect(pollDelayMs(3, "create_vm", resolvePollSchedule({ maxMs: 2000 }))).toBe(2000);
});

test("bad overrides are refused", () => {
  expect(() => resolvePollSchedule({ initialMs: 0 })).toThrow(RangeError);
  expect(() => resolvePollSchedule({ factor: 0.5 })).toThrow(RangeError);
});

test("the simulator's task type for an upgrade gets the upgrade ceiling", async () => {
  const sim = await startSimulator({ apiKey: newKey(), timeScale: 50 });
  try {
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
    const { tasks } = await client.cloud.k8s.upgrade(1, 76, "prod-cluster", "v1.31.2");
    const task = await client.cloud.tasks.get(tasks[0] as string);
    expect(recommendedIntervalMs(task.taskType)).toBe(15_000);
  } finally {
    await sim.close();
  }
});
