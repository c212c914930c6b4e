/**
 * The simulator at scale: bulk seeding through `POST /__admin/bulk`, lists of 10,000 items,
 * indexed lookups that stay right after changes, bytes per response in the request log and the
 * bounded log.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { RunningSimulator } from "../../../simulator";
import { RequestLog } from "../../../simulator/requestLog";
import { call, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());
beforeEach(async () => {
  expect((await call(sim.url, "POST", "/__admin/reset", { key: null })).status).toBe(200);
});

const bulk = (body: unknown) => call(sim.url, "POST", "/__admin/bulk", { key: null, body });
const EVENTS = "/storage/notifications/v1/events";
const EVENT = "/storage/notifications/v1/event";

test("bulk seeding creates 10,000 events, instances and tasks, answered by the list endpoints", async () => {
  const seededHere = sim.state().instances.filter((i) => i.project_id === 1 && i.region_id === 76).length;
  const r = await bulk({
    storageEvents: { total: 10000, template: { name: "reaching_used_space", storage_name: "s-{i}", bucket_name: "b", bytes: 5 } },
    instances: { total: 10000, template: { name: "vm-{i}", project_id: 1, region_id: 76 } },
    tasks: { total: 10000, template: { task_type: "create_vm", project_id: 1, region_id: 76 } },
  });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ created: { storageEvents: 10000, instances: 10000, tasks: 10000 } });

  const events = await call(sim.url, "GET", EVENTS);
  expect(events.body.reaching_used_space).toHaveLength(10000);
  expect(events.body.reaching_used_space[42]).toMatchObject({ storage_name: "s-42", bucket_name: "b", bytes: 5 });

  const instances = await call(sim.url, "GET", "/cloud/v1/instances/1/76?limit=1000&offset=9500&order_by=name.asc");
  expect(instances.body.count).toBe(10000 + seededHere);
  expect(instances.body.results).toHaveLength(500 + seededHere);
  const names = instances.body.results.map((i: { name: string }) => i.name);
  expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));

  const tasks = await call(sim.url, "GET", "/cloud/v1/tasks?project_id=1&task_type=create_vm&limit=1000&offset=9000&order_by=asc");
  expect(tasks.body.count).toBe(10000);
  expect(tasks.body.results).toHaveLength(1000);
  expect(tasks.body.results.every((t: { state: string }) => t.state === "FINISHED")).toBe(true);
  const one = tasks.body.results[0].id as string;
  expect((await call(sim.url, "GET", `/cloud/v1/tasks/${one}`)).body).toMatchObject({ id: one, state: "FINISHED" });
});

test("a bulk call that would duplicate an event identity or names an unknown kind changes nothing", async () => {
  const dup = await bulk({ storageEvents: { total: 2, template: { storage_name: "same" } }, tasks: { total: 3 } });
  expect(dup.status).toBe(409);
  expect(dup.body.error).toMatch(/item 1.*already exists.*\{i\}/);
  expect(sim.state().storageEvents).toHaveLength(0);
  expect(sim.state().tasks).toHaveLength(0);

  const unknownKind = await bulk({ clusters: { total: 1 } });
  expect(unknownKind.status).toBe(400);
  expect(unknownKind.body.error).toMatch(/unknown bulk kind clusters; allowed: storageEvents, instances, tasks/);
  const badTotal = await bulk({ instances: { total: -1 } });
  expect(badTotal.status).toBe(400);
  expect(badTotal.body.error).toMatch(/instances must be \{total/);
  const badName = await bulk({ storageEvents: { total: 1, template: { name: "nope" } } });
  expect(badName.status).toBe(400);
  expect(badName.body.error).toMatch(/name must be one of reaching_used_space/);
});

test("identity lookups stay right across bulk seeding, creates, updates and out-of-band changes", async () => {
  await bulk({ storageEvents: { total: 1000, template: { storage_name: "s-{i}" } } });
  // a clash with a bulk-created event
  const clash = await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s-7", bytes: 1 } });
  expect(clash.status).toBe(409);
  // moving an event to another storage frees its old identity and takes the new one
  const moved = await call(sim.url, "PUT", EVENT, { body: { name: "reaching_used_space", storage_name: "s-8", bytes: 2 } });
  expect(moved.status).toBe(204);
  const target = sim.state().storageEvents.find((e) => e.storage_name === "s-9");
  expect(target).toBeDefined();
  const put = await call(sim.url, "PUT", EVENT, { body: { uuid: target?.uuid, name: "reaching_used_space", storage_name: "moved", bytes: 3 } });
  expect(put.status).toBe(204);
  expect((await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s-9", bytes: 1 } })).status).toBe(200);
  expect((await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "moved", bytes: 1 } })).status).toBe(409);
  // an out-of-band rename through the admin API
  const other = sim.state().storageEvents.find((e) => e.storage_name === "s-10");
  await call(sim.url, "PATCH", `/__admin/events/${other?.uuid ?? ""}`, { key: null, body: { storage_name: "renamed" } });
  expect((await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s-10", bytes: 1 } })).status).toBe(200);
  expect((await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "renamed", bytes: 1 } })).status).toBe(409);
  // deletes by identity and uuid
  expect((await call(sim.url, "DELETE", EVENT, { body: { name: "reaching_used_space", storage_name: "s-11" } })).status).toBe(204);
  expect((await call(sim.url, "DELETE", EVENT, { body: { uuid: other?.uuid } })).status).toBe(204);
  expect((await call(sim.url, "DELETE", EVENT, { body: { uuid: other?.uuid } })).status).toBe(400);
  expect((await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s-11", bytes: 1 } })).status).toBe(200);
  expect(sim.state().storageEvents).toHaveLength(1000 + 2 - 2 + 1);
});

test("the request log records the bytes of each response body", async () => {
  await bulk({ storageEvents: { total: 50, template: { storage_name: "s-{i}" } } });
  const list = await call(sim.url, "GET", EVENTS);
  const missing = await call(sim.url, "DELETE", EVENT, { body: { uuid: "nope" } });
  const log = sim.requests();
  expect(log.map((e) => e.responseBytes)).toEqual([Buffer.byteLength(list.text), Buffer.byteLength(missing.text)]);
  expect(log[0]?.responseBytes).toBeGreaterThan(50 * 40);
  const viaAdmin = await call(sim.url, "GET", "/__admin/requests", { key: null });
  expect(viaAdmin.body.requests[0].responseBytes).toBe(Buffer.byteLength(list.text));
});

test("the request log keeps the newest entries up to its bound", () => {
  const log = new RequestLog(100);
  for (let i = 0; i < 1234; i++) {
    log.add({ time: "t", method: "GET", path: `/p/${i}`, query: {}, status: 200, requestId: `r${i}`, responseBytes: 0 });
    expect(log.list().length).toBe(Math.min(i + 1, 100));
  }
  const entries = log.list();
  expect(entries[0]?.path).toBe("/p/1134");
  expect(entries[99]?.path).toBe("/p/1233");
  expect(entries[99]?.seq).toBe(1234);
});

test("a state file gets every change once the simulator closes", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sim-scale-"));
  try {
    const stateFile = path.join(dir, "state.json");
    const s = await start({ stateFile });
    for (let i = 0; i < 20; i++) {
      await call(s.url, "POST", EVENT, { body: { name: "reaching_files_quantity", storage_name: `f-${i}`, count: i } });
    }
    await call(s.url, "POST", "/__admin/bulk", { key: null, body: { tasks: { total: 30 } } });
    await s.close();
    const saved = JSON.parse(fs.readFileSync(stateFile, "utf8"));
    expect(saved.state.storageEvents).toHaveLength(20);
    expect(saved.state.tasks).toHaveLength(30);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
