/** State file persistence across a restart, including a task that keeps running. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { call, start } from "./helpers";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-state-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("events, out-of-band changes and a running upgrade survive a restart", async () => {
  const stateFile = path.join(dir, "nested", "state.json");
  let now = Date.parse("2026-11-01T00:00:00Z");
  const first = await start({ stateFile, now: () => now });
  const ev = await call(first.url, "POST", "/storage/notifications/v1/event", { body: { name: "reaching_used_space", storage_name: "keep", bytes: 9 } });
  await call(first.url, "PATCH", "/__admin/clusters/1/76/demo-cluster", { key: null, body: { version: "v1.31.2" } });
  const up = await call(first.url, "POST", "/cloud/v2/k8s/clusters/1/76/prod-cluster/upgrade", { body: { version: "v1.31.2" } });
  const taskId: string = up.body.tasks[0];
  now += 10000;
  expect((await call(first.url, "GET", `/cloud/v1/tasks/${taskId}`)).body.state).toBe("RUNNING");
  await first.close();
  expect(fs.existsSync(stateFile)).toBe(true);

  const second = await start({ stateFile, now: () => now });
  try {
    const list = await call(second.url, "GET", "/storage/notifications/v1/events");
    expect(list.body.reaching_used_space).toEqual([{ uuid: ev.body.uuid, storage_name: "keep", bytes: 9 }]);
    expect((await call(second.url, "GET", "/cloud/v2/k8s/clusters/1/76/demo-cluster")).body.version).toBe("v1.31.2");
    const running = await call(second.url, "GET", `/cloud/v1/tasks/${taskId}`);
    expect(running.body.state).toBe("RUNNING");
    expect((await call(second.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster")).body.task_id).toBe(taskId);
    now += 21000;
    expect((await call(second.url, "GET", `/cloud/v1/tasks/${taskId}`)).body.state).toBe("FINISHED");
    expect((await call(second.url, "GET", "/cloud/v2/k8s/clusters/1/76/prod-cluster")).body).toMatchObject({ version: "v1.31.2", task_id: null });
  } finally {
    await second.close();
  }

  // a task that ended while the simulator was down has its effects applied at start
  const third = await start({ stateFile, now: () => now });
  try {
    const up2 = await call(third.url, "POST", "/cloud/v2/k8s/clusters/1/76/legacy-cluster/upgrade", { body: { version: "v1.29.8" } });
    await third.close();
    now += 60000;
    const fourth = await start({ stateFile, now: () => now });
    try {
      expect((await call(fourth.url, "GET", `/cloud/v1/tasks/${up2.body.tasks[0]}`)).body.state).toBe("FINISHED");
      expect((await call(fourth.url, "GET", "/cloud/v2/k8s/clusters/1/76/legacy-cluster")).body.version).toBe("v1.29.8");
      // reset goes back to the seed and persists it
      fourth.reset();
    } finally {
      await fourth.close();
    }
    const fifth = await start({ stateFile, now: () => now });
    try {
      expect((await call(fifth.url, "GET", "/cloud/v2/k8s/clusters/1/76/legacy-cluster")).body.version).toBe("v1.28.12");
      expect((await call(fifth.url, "GET", "/storage/notifications/v1/events")).body.reaching_used_space).toEqual([]);
    } finally {
      await fifth.close();
    }
  } finally {
    await third.close();
  }
});

test("a seed file path is loaded; a non-state file is rejected as a state file", async () => {
  const seedFile = path.join(dir, "seed.json");
  fs.writeFileSync(seedFile, JSON.stringify({ projects: [{ id: 9, name: "only", is_default: true }] }));
  const sim = await start({ seed: seedFile });
  try {
    expect((await call(sim.url, "GET", "/cloud/v1/projects")).body).toEqual({ count: 1, results: [{ id: 9, name: "only", is_default: true, state: "ACTIVE" }] });
  } finally {
    await sim.close();
  }
  await expect(start({ stateFile: seedFile })).rejects.toThrow(/not a cloudplatform simulator state file/);
});
