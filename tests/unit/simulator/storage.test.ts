/** Storage notification events: create, 409, 400 pairing, update, delete, list. */
import { RunningSimulator } from "../../../simulator";
import { call, start } from "./helpers";

const EVENT = "/storage/notifications/v1/event";
const EVENTS = "/storage/notifications/v1/events";
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe("create", () => {
  test("200 Event with a server-assigned uuid (a uuid in the body is ignored)", async () => {
    const r = await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s1", bucket_name: "b1", bytes: 500, uuid: "mine" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "reaching_used_space", storage_name: "s1", bucket_name: "b1", bytes: 500 });
    expect(r.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body.count).toBeUndefined();
    const list = await call(sim.url, "GET", EVENTS);
    expect(list.body.reaching_used_space).toEqual([{ uuid: r.body.uuid, storage_name: "s1", bucket_name: "b1", bytes: 500 }]);
  });

  test("409 {error} for the same name+storage+bucket(+client_id); other identities are fine", async () => {
    const body = { name: "reaching_files_quantity", storage_name: "s1", bucket_name: "b1", count: 5 };
    expect((await call(sim.url, "POST", EVENT, { body })).status).toBe(200);
    const dup = await call(sim.url, "POST", EVENT, { body: { ...body, count: 9 } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toContain("already exists");
    expect((await call(sim.url, "POST", EVENT, { body: { ...body, bucket_name: "b2" } })).status).toBe(200);
    expect((await call(sim.url, "POST", `${EVENT}?client_id=42`, { body })).status).toBe(200);
    expect((await call(sim.url, "POST", `${EVENT}?client_id=42`, { body })).status).toBe(409);
    const list = await call(sim.url, "GET", EVENTS);
    expect(list.body.reaching_files_quantity).toHaveLength(3);
  });

  test("400 {error} for unknown name, missing name, wrong limit kind, bad values", async () => {
    const bad: unknown[] = [
      { name: "reaching_the_moon", bytes: 1 },
      { storage_name: "s1", bytes: 1 },
      { name: "reaching_used_space", count: 5 },
      { name: "reaching_used_traffic", count: 5 },
      { name: "reaching_files_quantity", bytes: 5 },
      { name: "reaching_used_requests", bytes: 5 },
      { name: "reaching_used_space", bytes: -1 },
      { name: "reaching_used_space", bytes: "500" },
      [1, 2],
    ];
    for (const body of bad) {
      const r = await call(sim.url, "POST", EVENT, { body });
      expect(r.status).toBe(400);
      expect(typeof r.body.error).toBe("string");
    }
    expect((await call(sim.url, "POST", `${EVENT}?client_id=abc`, { body: { name: "reaching_used_space", bytes: 1 } })).status).toBe(400);
    const list = await call(sim.url, "GET", EVENTS);
    expect(Object.values(list.body).flat()).toEqual([]);
  });
});

describe("update, delete, list", () => {
  test("list is keyed by the four names, each an array", async () => {
    await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_traffic", storage_name: "s", bytes: 7 } });
    await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_requests", storage_name: "s", count: 8 } });
    const r = await call(sim.url, "GET", EVENTS);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["reaching_files_quantity", "reaching_used_requests", "reaching_used_space", "reaching_used_traffic"]);
    expect(r.body.reaching_used_traffic[0]).toMatchObject({ storage_name: "s", bytes: 7 });
    expect(r.body.reaching_used_requests[0]).toMatchObject({ storage_name: "s", count: 8 });
    expect(r.body.reaching_used_space).toEqual([]);
  });

  test("PUT by uuid and by identity: 204 and the change shows in the list", async () => {
    const c = await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s", bucket_name: "b", bytes: 100 } });
    const byUuid = await call(sim.url, "PUT", EVENT, { body: { uuid: c.body.uuid, name: "reaching_used_space", bytes: 200 } });
    expect(byUuid.status).toBe(204);
    expect(byUuid.text).toBe("");
    let list = await call(sim.url, "GET", EVENTS);
    expect(list.body.reaching_used_space[0]).toMatchObject({ uuid: c.body.uuid, bytes: 200, storage_name: "s", bucket_name: "b" });
    const byIdentity = await call(sim.url, "PUT", EVENT, { body: { name: "reaching_used_space", storage_name: "s", bucket_name: "b", bytes: 300 } });
    expect(byIdentity.status).toBe(204);
    list = await call(sim.url, "GET", EVENTS);
    expect(list.body.reaching_used_space[0].bytes).toBe(300);
    const wrongKind = await call(sim.url, "PUT", EVENT, { body: { uuid: c.body.uuid, name: "reaching_used_space", count: 3 } });
    expect(wrongKind.status).toBe(400);
    const missing = await call(sim.url, "PUT", EVENT, { body: { uuid: "no-such", name: "reaching_used_space", bytes: 1 } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "event not found" });
  });

  test("PUT that would collide with another event is 409", async () => {
    await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s", bucket_name: "a", bytes: 1 } });
    const b = await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s", bucket_name: "b", bytes: 1 } });
    const r = await call(sim.url, "PUT", EVENT, { body: { uuid: b.body.uuid, bucket_name: "a" } });
    expect(r.status).toBe(409);
    expect(typeof r.body.error).toBe("string");
  });

  test("DELETE with a JSON body (uuid or identity) is 204; a missing event is 400 event not found", async () => {
    const a = await call(sim.url, "POST", EVENT, { body: { name: "reaching_used_space", storage_name: "s", bytes: 1 } });
    await call(sim.url, "POST", EVENT, { body: { name: "reaching_files_quantity", storage_name: "s", count: 1 } });
    const d1 = await call(sim.url, "DELETE", EVENT, { body: { uuid: a.body.uuid, name: "reaching_used_space" } });
    expect(d1.status).toBe(204);
    const d2 = await call(sim.url, "DELETE", EVENT, { body: { name: "reaching_files_quantity", storage_name: "s" } });
    expect(d2.status).toBe(204);
    const list = await call(sim.url, "GET", EVENTS);
    expect(Object.values(list.body).flat()).toEqual([]);
    const again = await call(sim.url, "DELETE", EVENT, { body: { uuid: a.body.uuid, name: "reaching_used_space" } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: "event not found" });
  });

  test("configurator lists the fields of each event type", async () => {
    const r = await call(sim.url, "GET", `${EVENTS}/configurator`);
    expect(r.status).toBe(200);
    const space = r.body.structure.find((s: { name: string }) => s.name === "reaching_used_space");
    expect(space.fields.map((f: { name: string }) => f.name)).toContain("bytes");
  });
});
