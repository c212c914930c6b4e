/**
 * The StorageEvent lifecycle, called directly against a simulator started for this file:
 * check (no API call), diff, create (409, ambiguous failures), read (drift, gone), update, delete.
 */
import { createClient, type CloudPlatformClient, type NotificationEvent } from "../../../provider/api";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import type { RunState } from "../../../provider/resources/runState";
import { WriteOutcomeUnknownError } from "../../../provider/resources/writeAttempts";
import { PartialResourceError } from "../../../provider/resources/partial";
import { CREATE_CHECK_WINDOW_MS, READ_MAX_AGE_MS } from "../../../provider/resources/storage/eventLists";
import {
  storageEvent,
  StorageEventAdoptionError,
  StorageEventConflictError,
  type StorageEventInputs,
  type StorageEventOutputs,
} from "../../../provider/resources/storageEvent";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { admin, expectNoSecret, newKey, rejectionOf, simulatorReports } from "../api/helpers";
import { contextOf, quickRun } from "./context";

const NAMES = ["reaching_used_space", "reaching_files_quantity", "reaching_used_traffic", "reaching_used_requests"];
const KEY = newKey();
let sim: RunningSimulator;
let client: CloudPlatformClient;
let logs: string[];

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY });
  client = createClient({ baseUrl: sim.url, apiKey: KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  logs = [];
});

/** A client as a new `pulumi up` has it (a new provider process). */
function newRunClient(): CloudPlatformClient {
  return createClient({ baseUrl: sim.url, apiKey: KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
}

function ctxWith(c: CloudPlatformClient = client, run: RunState = quickRun()): LifecycleContext {
  return contextOf(c, (m) => logs.push(m), run);
}

/**
 * A run in which another create's event list is still in flight and comes back empty: the
 * list predates an event that appears before this create POSTs (another stack's, say).
 */
function runWithStaleList(): RunState {
  const run = quickRun();
  void run.eventLists.get("create-check", () => Promise.resolve<NotificationEvent[]>([]));
  return run;
}

/** A context whose client must not be used (check makes no API call). */
const noApi: LifecycleContext = {
  client: () => {
    throw new Error("check must not call the API");
  },
  log: () => undefined,
  signal: new AbortController().signal,
  run: quickRun(),
};

/** Faults on the event POST only (not on the `/v1/events` read-back), for its first `times` sends. */
const POST_EVENT = { path: "/storage/notifications/v1/event", method: "POST" };

const writes = () => sim.requests().filter((r) => r.method !== "GET");
const posts = () => sim.requests().filter((r) => r.method === "POST");

async function check(news: Record<string, unknown>, unknown: string[] = []) {
  return storageEvent.check(noApi, news, new Set(unknown));
}

function failureOn(result: { failures: { property: string; reason: string }[] }, property: string): string {
  const f = result.failures.find((x) => x.property === property);
  if (!f) throw new Error(`expected a failure on ${property}, got ${JSON.stringify(result.failures)}`);
  return f.reason;
}

describe("check", () => {
  test.each([
    [{ name: "reaching_used_space", storageName: "media", bytes: 500 }],
    [{ name: "reaching_used_traffic", bucketName: "photos", bytes: 0 }],
    [{ name: "reaching_files_quantity", storageName: "media", bucketName: "photos", count: 5, clientId: 42 }],
    [{ name: "reaching_used_requests", storageName: "media", count: 1_000_000 }],
  ])("accepts %j and returns exactly the declared fields", async (news) => {
    const r = await check({ ...news, extra: "dropped" });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual(news);
  });

  test("an unknown name names the field and lists the four allowed values", async () => {
    const reason = failureOn(await check({ name: "reaching_the_moon", storageName: "s", bytes: 1 }), "name");
    expect(reason).toContain("name");
    expect(reason).toContain('"reaching_the_moon"');
    for (const n of NAMES) expect(reason).toContain(n);
    const missing = failureOn(await check({ storageName: "s", bytes: 1 }), "name");
    for (const n of NAMES) expect(missing).toContain(n);
  });

  test.each([
    ["reaching_files_quantity", { bytes: 5, count: 5 }, "bytes", ["reaching_used_space", "reaching_used_traffic"]],
    ["reaching_used_requests", { bytes: 5, count: 5 }, "bytes", ["reaching_used_space", "reaching_used_traffic"]],
    ["reaching_used_space", { bytes: 5, count: 5 }, "count", ["reaching_files_quantity", "reaching_used_requests"]],
    ["reaching_used_traffic", { bytes: 5, count: 5 }, "count", ["reaching_files_quantity", "reaching_used_requests"]],
  ])("%s with the other kind of limit fails on that field, naming its names", async (name, limits, wrong, goesWith) => {
    const r = await check({ name, storageName: "s", ...limits });
    expect(r.failures.map((f) => f.property)).toEqual([wrong]);
    const reason = failureOn(r, wrong);
    expect(reason).toContain(wrong);
    for (const n of goesWith) expect(reason).toContain(n);
    expect(reason).toContain(name);
  });

  test.each([
    ["reaching_used_space", "bytes"],
    ["reaching_used_traffic", "bytes"],
    ["reaching_files_quantity", "count"],
    ["reaching_used_requests", "count"],
  ])("%s without its limit fails on %s", async (name, kind) => {
    const r = await check({ name, storageName: "s" });
    expect(r.failures.map((f) => f.property)).toEqual([kind]);
    expect(failureOn(r, kind)).toContain(name);
  });

  test("the wrong kind alone is reported once, on the wrong field, saying which field to set", async () => {
    const r = await check({ name: "reaching_used_space", storageName: "s", count: 5 });
    expect(r.failures.map((f) => f.property)).toEqual(["count"]);
    expect(failureOn(r, "count")).toContain("set bytes instead of count");
  });

  test.each([
    ["bytes", "reaching_used_space", -1],
    ["bytes", "reaching_used_space", 1.5],
    ["bytes", "reaching_used_space", "500"],
    ["bytes", "reaching_used_space", Number.MAX_SAFE_INTEGER + 10],
    ["count", "reaching_files_quantity", -3],
    ["count", "reaching_files_quantity", 2.25],
  ])("%s of %s = %p is rejected as not a non-negative integer", async (field, name, value) => {
    const reason = failureOn(await check({ name, storageName: "s", [field]: value }), field);
    expect(reason).toContain(field);
    expect(reason).toContain("non-negative integer");
  });

  test("neither storageName nor bucketName is rejected, naming both", async () => {
    const r = await check({ name: "reaching_used_space", bytes: 1 });
    const reason = failureOn(r, "storageName");
    expect(reason).toContain("storageName");
    expect(reason).toContain("bucketName");
  });

  test.each([["storageName", ""], ["bucketName", "  "], ["storageName", 7]])("%s = %p is rejected", async (field, value) => {
    const reason = failureOn(await check({ name: "reaching_used_space", storageName: "s", bytes: 1, [field]: value }), field);
    expect(reason).toContain("non-empty string");
  });

  test.each([0, -5, 1.5, "42"])("clientId = %p must be a positive integer", async (clientId) => {
    const reason = failureOn(await check({ name: "reaching_used_space", storageName: "s", bytes: 1, clientId }), "clientId");
    expect(reason).toContain("clientId");
    expect(reason).toContain("positive integer");
  });

  test("unknown (preview) inputs are skipped, known ones are still checked", async () => {
    const U = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    // name unknown: the pairing cannot be judged.
    expect((await check({ name: U, storageName: "s", bytes: 1, count: 2 }, ["name"])).failures).toEqual([]);
    // the limit unknown: not "missing".
    expect((await check({ name: "reaching_used_space", storageName: "s", bytes: U }, ["bytes"])).failures).toEqual([]);
    // storage unknown and no bucket: the scope may still be set.
    expect((await check({ name: "reaching_used_space", storageName: U, bytes: 1 }, ["storageName"])).failures).toEqual([]);
    // a known wrong kind is still reported while another input is unknown.
    const r = await check({ name: "reaching_used_space", storageName: U, bytes: 1, count: 2 }, ["storageName"]);
    expect(r.failures.map((f) => f.property)).toEqual(["count"]);
    // the unknown value is passed through for the engine.
    expect(r.inputs.storageName).toBe(U);
  });
});

describe("diff", () => {
  const olds: StorageEventOutputs = { name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 500, uuid: "u-1" };
  const base: StorageEventInputs = { name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 500 };

  test("same inputs: no change (the uuid output and the serialized provider do not count)", async () => {
    expect(await storageEvent.diff("u-1", olds, base)).toMatchObject({ changes: false, replaces: [] });
    expect((await storageEvent.diff("u-1", { ...olds, clientId: null } as never, { ...base, clientId: undefined })).changes).toBe(false);
  });

  test("a create recorded as pending (no uuid yet) updates, to finish it", async () => {
    expect(await storageEvent.diff("pending-create:x", { ...olds, uuid: "" }, base)).toMatchObject({ changes: true, replaces: [] });
  });

  test("a limit change updates in place", async () => {
    expect(await storageEvent.diff("u-1", olds, { ...base, bytes: 900 })).toEqual({ changes: true, replaces: [], diffs: ["bytes"], deleteBeforeReplace: false });
    const counts: StorageEventOutputs = { name: "reaching_used_requests", storageName: "media", count: 5, uuid: "u-2" };
    expect(await storageEvent.diff("u-2", counts, { ...counts, count: 6 })).toMatchObject({ changes: true, replaces: [] });
  });

  test.each([
    ["name", { name: "reaching_used_traffic" }],
    ["storageName", { storageName: "other" }],
    ["bucketName", { bucketName: "other" }],
    ["bucketName", { bucketName: undefined }],
    ["clientId", { clientId: 42 }],
  ])("a %s change replaces", async (field, change) => {
    const r = await storageEvent.diff("u-1", olds, { ...base, ...change } as StorageEventInputs);
    expect(r.changes).toBe(true);
    expect(r.replaces).toEqual([field]);
  });
});

describe("create", () => {
  test("POSTs once and stores the inputs plus the server-assigned uuid as id", async () => {
    const inputs: StorageEventInputs = { name: "reaching_files_quantity", storageName: "media", bucketName: "photos", count: 5, clientId: 42 };
    const { id, outs } = await storageEvent.create(ctxWith(), inputs);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(outs).toEqual({ ...inputs, uuid: id });
    expect(posts()).toEqual([expect.objectContaining({ path: "/storage/notifications/v1/event", status: 200, query: { client_id: "42" } })]);
    expect(sim.state().storageEvents).toEqual([
      { uuid: id, name: "reaching_files_quantity", storage_name: "media", bucket_name: "photos", count: 5, client_id: 42 },
    ]);
  });

  test("an event with the same identity already there: fails before any write, naming its uuid and adoptUuid", async () => {
    const existing = await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 100 });
    const err = await rejectionOf(storageEvent.create(ctxWith(), { name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 500 }));
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain('reaching_used_space for storage "media", bucket "photos"');
    expect(err.message).toContain(`already exists (uuid ${existing.uuid}, bytes 100) and this resource does not own it; nothing was created or changed`);
    expect(err.message).toContain(`\`adoptUuid: "${existing.uuid}"\``);
    expect(err.message).toContain(`pulumi import cloudplatform:index:StorageEvent <resource name> ${existing.uuid}`);
    expect(err.message).toContain('aliases: [{ name: "<old name>" }]');
    expectNoSecret(err, KEY);
    expect(posts().map((r) => r.status)).toEqual([200]); // the setup's own POST only
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: existing.uuid, bytes: 100 })]);
  });

  test("an identical event (left by an interrupted up) is not adopted silently either", async () => {
    const before = await client.storage.notifications.create({ name: "reaching_used_requests", bucketName: "orphan", count: 3 });
    const err = await rejectionOf(storageEvent.create(ctxWith(newRunClient()), { name: "reaching_used_requests", bucketName: "orphan", count: 3 }));
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain(`adoptUuid: "${before.uuid}"`);
    expect(posts()).toHaveLength(1);
  });

  test("an event that appears after the list (the server's 409): the same clear error, with the server's words", async () => {
    const existing = await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bytes: 100 });
    const err = await rejectionOf(storageEvent.create(ctxWith(client, runWithStaleList()), { name: "reaching_used_space", storageName: "media", bytes: 500 }));
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain(`already exists (uuid ${existing.uuid}, bytes 100)`);
    expect(err.message).toMatch(/\(POST \/storage\/notifications\/v1\/event failed \(409 ConflictError\): event reaching_used_space .* already exists/);
    expect(posts().map((r) => r.status)).toEqual([200, 409]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: existing.uuid, bytes: 100 })]);
  });

  test("the same identity for another client is a different event (no 409) when the list shows that other client", async () => {
    await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bytes: 100 }, { clientId: 3 });
    expect((await client.storage.notifications.list()).map((e) => e.clientId)).toEqual([3]);
    const { outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", storageName: "media", bytes: 100, clientId: 7 });
    expect(outs.clientId).toBe(7);
    expect(posts().map((r) => r.status)).toEqual([200, 200]);
    expect(sim.state().storageEvents.map((e) => e.client_id)).toEqual([3, 7]);
  });

  test("an event listed with a client is not in the way of a declaration without one", async () => {
    await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bytes: 100 }, { clientId: 3 });
    await storageEvent.create(ctxWith(), { name: "reaching_used_space", storageName: "media", bytes: 100 });
    expect(posts().map((r) => r.status)).toEqual([200, 200]);
    expect(sim.state().storageEvents).toHaveLength(2);
  });

  test("an event listed without client_id matches a declared event of any client: a conflict naming it, before any write", async () => {
    // Made without a client, so the list shows none: it cannot be told apart from client 7's.
    const existing = await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bytes: 100 });
    expect((await client.storage.notifications.list()).map((e) => e.clientId)).toEqual([null]);
    const err = await rejectionOf(storageEvent.create(ctxWith(), { name: "reaching_used_space", storageName: "media", bytes: 100, clientId: 7 }));
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain(`already exists (uuid ${existing.uuid}, bytes 100)`);
    expect(err.message).toContain(`adoptUuid: "${existing.uuid}"`);
    expect(posts().map((r) => r.status)).toEqual([200]); // the setup's own POST only
    expect(sim.state().storageEvents).toHaveLength(1);
  });

  test("two declarations of one event in one run: the second fails without a POST", async () => {
    const run = quickRun();
    const inputs: StorageEventInputs = { name: "reaching_used_requests", bucketName: "twins", count: 1 };
    const [first, second] = await Promise.allSettled([storageEvent.create(ctxWith(client, run), inputs), storageEvent.create(ctxWith(client, run), inputs)]);
    expect(first.status).toBe("fulfilled");
    expect(second.status).toBe("rejected");
    expect(String((second as PromiseRejectedResult).reason.message)).toContain("another StorageEvent of this program declares the same event");
    expect(posts()).toHaveLength(1);
  });

  test("one run lists the events once for the creates that start within the batching window, and afresh after it", async () => {
    let now = 1_000_000;
    const run = quickRun({ now: () => now });
    await Promise.all(["a", "b", "c", "d"].map((bucketName) => storageEvent.create(ctxWith(client, run), { name: "reaching_used_requests", bucketName, count: 1 })));
    const lists = () => sim.requests().filter((r) => r.method === "GET" && r.path === "/storage/notifications/v1/events").length;
    expect(posts()).toHaveLength(4);
    expect(lists()).toBe(1);
    now += CREATE_CHECK_WINDOW_MS;
    await storageEvent.create(ctxWith(client, run), { name: "reaching_used_requests", bucketName: "e", count: 1 });
    expect(lists()).toBe(1);
    now += 1;
    await storageEvent.create(ctxWith(client, run), { name: "reaching_used_requests", bucketName: "f", count: 1 });
    expect(lists()).toBe(2);
    expect(posts()).toHaveLength(6);
  });

  test("a create stopped (its customTimeouts) while the pre-check list it started is shared: the other creates list again and succeed", async () => {
    await admin(sim.url, "POST", "/faults", { latencyMs: 400, path: "/storage/notifications/v1/events", method: "GET", times: 1 });
    const run = quickRun();
    const stop = new AbortController();
    const stopped = { ...contextOf(client.withSignal(stop.signal), (m) => logs.push(m), run), signal: stop.signal };
    const first = storageEvent.create(stopped, { name: "reaching_used_requests", bucketName: "stopped", count: 1 });
    const second = storageEvent.create(ctxWith(client, run), { name: "reaching_used_requests", bucketName: "goes-on", count: 1 });
    setTimeout(() => stop.abort(), 100);
    expect(await rejectionOf(first)).toBeDefined();
    const { outs } = await second;
    expect(outs.bucketName).toBe("goes-on");
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: outs.uuid })]);
    // The stopped list is still held by the server; it must not land in the next test's log.
    await simulatorReports(sim.url, (r) => r.inFlight.length === 0);
  });

  test("after a delete of this run, a create lists afresh (the shared list still shows the deleted event)", async () => {
    const inputs: StorageEventInputs = { name: "reaching_used_requests", bucketName: "again", count: 1 };
    const earlier = await storageEvent.create(ctxWith(), inputs);
    let now = 1_000_000;
    const run = quickRun({ now: () => now });
    await storageEvent.create(ctxWith(client, run), { ...inputs, bucketName: "other" });
    now += 10;
    await storageEvent.delete(ctxWith(client, run), earlier.id, earlier.outs);
    now += 10;
    const again = await storageEvent.create(ctxWith(client, run), inputs);
    expect(again.id).not.toBe(earlier.id);
    expect(sim.requests().filter((r) => r.method === "GET" && r.path === "/storage/notifications/v1/events")).toHaveLength(3);
  });

  test("connection reset after the server handled the POST: reading back finds it, no second POST", async () => {
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, ...POST_EVENT });
    const inputs: StorageEventInputs = { name: "reaching_used_traffic", storageName: "media", bytes: 2048 };
    const { id, outs } = await storageEvent.create(ctxWith(), inputs);
    expect(posts()).toEqual([expect.objectContaining({ status: 200, fault: "reset" })]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: id, name: "reaching_used_traffic", bytes: 2048 })]);
    expect(outs).toEqual({ ...inputs, uuid: id });
    expect(logs.join("\n")).toMatch(/took effect after all; not sending it again/);
  });

  test("connection reset before the server handled the POST: reading back proves nothing was created, so it is sent again", async () => {
    await admin(sim.url, "POST", "/faults", { resetRate: 1, times: 1, ...POST_EVENT });
    const inputs: StorageEventInputs = { name: "reaching_used_space", storageName: "media", bytes: 1 };
    const { id } = await storageEvent.create(ctxWith(), inputs);
    expect(posts()).toEqual([expect.objectContaining({ status: 0, fault: "reset" }), expect.objectContaining({ status: 200 })]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: id, name: "reaching_used_space", bytes: 1 })]);
    expect(logs.join("\n")).toMatch(/took no effect; sending it again \(attempt 2 of 5\)/);
  });

  test("ambiguous failure that meets an event with another limit: a conflict, not an adoption", async () => {
    await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bytes: 100 });
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, ...POST_EVENT });
    const err = await rejectionOf(storageEvent.create(ctxWith(client, runWithStaleList()), { name: "reaching_used_space", storageName: "media", bytes: 500 }));
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain("bytes 100");
    expect(posts().map((r) => r.status)).toEqual([200, 409]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ bytes: 100 })]);
  });
});

describe("create with adoptUuid", () => {
  test("takes over the named event: one event, zero POSTs", async () => {
    const made = await client.storage.notifications.create({ name: "reaching_files_quantity", storageName: "media", count: 9 });
    const inputs: StorageEventInputs = { name: "reaching_files_quantity", storageName: "media", count: 9, adoptUuid: String(made.uuid) };
    const { id, outs } = await storageEvent.create(ctxWith(), inputs);
    expect(id).toBe(made.uuid);
    expect(outs).toEqual({ ...inputs, uuid: made.uuid });
    expect(writes()).toHaveLength(1); // the setup's POST
    expect(sim.state().storageEvents).toHaveLength(1);
  });

  test("a different declared limit is PUT onto the adopted event", async () => {
    const made = await client.storage.notifications.create({ name: "reaching_files_quantity", storageName: "media", count: 9 });
    await storageEvent.create(ctxWith(), { name: "reaching_files_quantity", storageName: "media", count: 20, adoptUuid: String(made.uuid) });
    expect(writes().map((r) => `${r.method} ${r.status}`)).toEqual(["POST 200", "PUT 204"]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: made.uuid, count: 20 })]);
  });

  test.each([
    ["an event with another identity", async () => String((await client.storage.notifications.create({ name: "reaching_files_quantity", storageName: "other", count: 9 })).uuid), /it is reaching_files_quantity for storage "other".*declares reaching_files_quantity for storage "media"/],
    ["no event at all", async () => "no-such-uuid", /the event list has no event with that uuid/],
  ])("adoptUuid naming %s is refused without any write", async (_label, uuidOf, message) => {
    const uuid = await uuidOf();
    const before = writes().length;
    const err = await rejectionOf(storageEvent.create(ctxWith(), { name: "reaching_files_quantity", storageName: "media", count: 9, adoptUuid: uuid }));
    expect(err).toBeInstanceOf(StorageEventAdoptionError);
    expect(err.message).toMatch(message);
    expect(writes()).toHaveLength(before);
  });

  test("left set after the adoption, it refuses a replacement's create instead of creating a new event (the docs say: remove it)", async () => {
    const made = await client.storage.notifications.create({ name: "reaching_files_quantity", storageName: "media", count: 9 });
    const adopted = { name: "reaching_files_quantity" as const, storageName: "media", count: 9, adoptUuid: String(made.uuid) };
    await storageEvent.create(ctxWith(), adopted);
    const before = writes().length;
    const err = await rejectionOf(storageEvent.create(ctxWith(), { ...adopted, storageName: "media-2" }));
    expect(err).toBeInstanceOf(StorageEventAdoptionError);
    expect(err.message).toContain(`Cannot adopt storage event ${made.uuid}`);
    expect(writes()).toHaveLength(before);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: made.uuid, storage_name: "media" })]);
  });

  test("the delete of the event's former resource, in the same run, leaves it to the adopter", async () => {
    const run = quickRun();
    const old = await storageEvent.create(ctxWith(client, run), { name: "reaching_used_space", storageName: "media", bytes: 5 });
    const renamed = quickRun();
    await storageEvent.create(ctxWith(client, renamed), { name: "reaching_used_space", storageName: "media", bytes: 5, adoptUuid: old.id });
    await storageEvent.delete(ctxWith(client, renamed), old.id, old.outs);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: old.id })]);
    expect(sim.requests().filter((r) => r.method === "DELETE")).toEqual([]);
    expect(logs.join("\n")).toContain("adopted by another resource in this run");
  });
});

describe("a client's event, listed without client_id (the public API's list)", () => {
  // The public-api dialect: the list (and the create's answer) never carry client_id, and a kind
  // without events is null; the server's identity still includes the client.
  const CLIENT = 42;
  const declared: StorageEventInputs = { name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes: 500, clientId: CLIENT };
  beforeEach(async () => {
    await admin(sim.url, "POST", "/dialect", { dialect: "public-api" });
  });

  /** The client's event, made out of band; the list shows it without its client. */
  async function existingEvent(bytes = 500): Promise<string> {
    await client.storage.notifications.create({ name: "reaching_used_space", storageName: "media", bucketName: "photos", bytes }, { clientId: CLIENT });
    const listed = await client.storage.notifications.list();
    expect(listed).toEqual([expect.objectContaining({ name: "reaching_used_space", clientId: null })]);
    const uuid = sim.state().storageEvents[0]?.uuid;
    expect(sim.state().storageEvents[0]?.client_id).toBe(CLIENT);
    return String(uuid);
  }

  test("the create's pre-check sees it: a conflict naming its uuid, no POST", async () => {
    const uuid = await existingEvent(100);
    const err = await rejectionOf(storageEvent.create(ctxWith(), declared));
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain(`already exists (uuid ${uuid}, bytes 100)`);
    expect(err.message).toContain(`adoptUuid: "${uuid}"`);
    expect(posts().map((r) => r.status)).toEqual([200]); // the setup's own POST only
    expect(sim.state().storageEvents).toHaveLength(1);
  });

  test("a create whose answer was lost finds it by probing the list: recorded, no second POST", async () => {
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, ...POST_EVENT });
    const { id, outs } = await storageEvent.create(ctxWith(), declared);
    expect(posts()).toEqual([expect.objectContaining({ status: 200, fault: "reset", query: { client_id: String(CLIENT) } })]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: id, client_id: CLIENT, bytes: 500 })]);
    expect(outs).toEqual({ ...declared, uuid: id });
    expect(logs.join("\n")).toMatch(/took effect after all; not sending it again/);
  });

  test("adoptUuid takes it over (the identity matches though the list shows no client); refresh keeps the client", async () => {
    const uuid = await existingEvent();
    const { id, outs } = await storageEvent.create(ctxWith(), { ...declared, adoptUuid: uuid });
    expect(id).toBe(uuid);
    expect(outs).toEqual({ ...declared, adoptUuid: uuid, uuid });
    expect(writes()).toHaveLength(1); // the setup's POST
    const read = await storageEvent.read(ctxWith(), id, outs);
    expect(read?.inputs.clientId).toBe(CLIENT);
    expect(read?.outs).toEqual(outs);
  });
});

describe("a read-back that fails itself", () => {
  test("create: 'may have taken effect', one POST, never a second; recorded as pending, found by the next run", async () => {
    // The prefix on purpose matches both the POST (reset after it was handled) and the /v1/events read-back (reset).
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, pathPrefix: "/storage/notifications/v1/event" });
    const inputs: StorageEventInputs = { name: "reaching_used_space", storageName: "media", bytes: 7 };
    const err = await rejectionOf(storageEvent.create(ctxWith(client, runWithStaleList()), inputs));
    expect(err).toBeInstanceOf(PartialResourceError);
    expect((err as PartialResourceError).cause).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(err.message).toMatch(/may have taken effect \(the list could not be read: GET \/storage\/notifications\/v1\/events failed/);
    expect(err.message).toContain("records the event as pending");
    expectNoSecret(err, KEY);
    expect(posts()).toHaveLength(1);
    const partial = err as PartialResourceError;
    expect(partial.id).toMatch(/^pending-create:/);
    expect(partial.properties).toEqual({ ...inputs, uuid: "" });

    // The next `up` updates the resource that failed to initialise: it finds the event by identity.
    await admin(sim.url, "DELETE", "/faults");
    const outs = await storageEvent.update(ctxWith(newRunClient()), partial.id, partial.properties as unknown as StorageEventOutputs, inputs);
    const live = sim.state().storageEvents;
    expect(live).toEqual([expect.objectContaining({ name: "reaching_used_space", bytes: 7 })]);
    expect(outs).toEqual({ ...inputs, uuid: live[0]?.uuid });
    expect(posts()).toHaveLength(1);
  });
});

describe("read", () => {
  const inputs: StorageEventInputs = { name: "reaching_used_requests", storageName: "media", bucketName: "logs", count: 10, clientId: 42 };

  test("the reads of one refresh share one list; a read after a write of the run lists again", async () => {
    let now = 1_000_000;
    const made = await Promise.all(
      ["a", "b", "c"].map((bucketName) => storageEvent.create(ctxWith(), { ...inputs, bucketName })),
    );
    await admin(sim.url, "DELETE", "/requests");
    const refresh = quickRun({ now: () => now });
    const reads = await Promise.all(made.map(({ id, outs }) => storageEvent.read(ctxWith(client, refresh), id, outs)));
    now += 1000;
    const lateRead = await storageEvent.read(ctxWith(client, refresh), made[0]!.id, made[0]!.outs);
    expect(reads.map((r) => r?.id)).toEqual(made.map((m) => m.id));
    expect(lateRead?.id).toBe(made[0]!.id);
    const lists = () => sim.requests().filter((r) => r.path === "/storage/notifications/v1/events").length;
    expect(lists()).toBe(1);
    // this run changes a limit: its next read must see it, so it lists again
    now += 10;
    await storageEvent.update(ctxWith(client, refresh), made[1]!.id, made[1]!.outs, { ...inputs, bucketName: "b", count: 77 });
    now += 10;
    const afterWrite = await storageEvent.read(ctxWith(client, refresh), made[1]!.id, made[1]!.outs);
    expect(afterWrite?.outs.count).toBe(77);
    expect(lists()).toBe(2);
    // and a list older than the read limit is not used
    now += READ_MAX_AGE_MS + 1;
    await storageEvent.read(ctxWith(client, refresh), made[2]!.id, made[2]!.outs);
    expect(lists()).toBe(3);
  });

  test("returns exactly what create stored (refresh right after up finds nothing)", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), inputs);
    expect(await storageEvent.read(ctxWith(), id, outs)).toEqual({ id, outs, inputs });
  });

  test("a limit changed elsewhere shows in outputs and inputs (drift)", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), inputs);
    await admin(sim.url, "PATCH", `/events/${id}`, { count: 99 });
    const r = await storageEvent.read(ctxWith(), id, outs);
    expect(r?.outs).toEqual({ ...outs, count: 99 });
    expect(r?.inputs).toEqual({ ...inputs, count: 99 });
  });

  test("an event deleted elsewhere reads as gone", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), inputs);
    await admin(sim.url, "DELETE", `/events/${id}`);
    expect(await storageEvent.read(ctxWith(), id, outs)).toBeUndefined();
  });

  test("reads by uuid only: an event with the same identity but another uuid is someone else's, so this one is gone", async () => {
    const { outs } = await storageEvent.create(ctxWith(), inputs);
    expect(await storageEvent.read(ctxWith(), "stale-id", { ...outs, uuid: "stale-id" })).toBeUndefined();
  });

});

describe("update", () => {
  test("PUTs the new limit by uuid and returns the full outputs", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", storageName: "media", bytes: 500 });
    const next = await storageEvent.update(ctxWith(), id, outs, { name: "reaching_used_space", storageName: "media", bytes: 900 });
    expect(next).toEqual({ name: "reaching_used_space", storageName: "media", bytes: 900, uuid: id });
    expect(writes().map((r) => `${r.method} ${r.status}`)).toEqual(["POST 200", "PUT 204"]);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: id, bytes: 900 })]);
  });

  test("an event deleted elsewhere: a clear error that says to refresh", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", storageName: "media", bytes: 500 });
    await admin(sim.url, "DELETE", `/events/${id}`);
    const err = await rejectionOf(storageEvent.update(ctxWith(), id, outs, { name: "reaching_used_space", storageName: "media", bytes: 900 }));
    expect(err.message).toContain("no longer exists");
    expect(err.message).toContain("pulumi refresh");
    expect(sim.state().storageEvents).toEqual([]);
  });

  test("connection reset after the PUT was handled: confirmed by listing, not sent again", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_files_quantity", storageName: "media", count: 1 });
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, path: "/storage/notifications/v1/event", method: "PUT" });
    const next = await storageEvent.update(ctxWith(), id, outs, { name: "reaching_files_quantity", storageName: "media", count: 2 });
    expect(next.count).toBe(2);
    expect(sim.requests().filter((r) => r.method === "PUT")).toHaveLength(1);
  });
});

describe("delete", () => {
  test("DELETEs by uuid", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", bucketName: "photos", bytes: 5 });
    await client.storage.notifications.create({ name: "reaching_used_traffic", bucketName: "photos", bytes: 5 });
    await storageEvent.delete(ctxWith(), id, outs);
    expect(sim.state().storageEvents.map((e) => e.name)).toEqual(["reaching_used_traffic"]);
    expect(sim.requests().filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual([204]);
  });

  test("an event already gone (400 event not found) counts as deleted", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", bucketName: "photos", bytes: 5 });
    await admin(sim.url, "DELETE", `/events/${id}`);
    await expect(storageEvent.delete(ctxWith(), id, outs)).resolves.toBeUndefined();
    expect(sim.requests().filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual([400]);
    expect(logs.join("\n")).toContain("already gone");
  });

  test("other failures are not swallowed (read-only key: 403)", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", bucketName: "photos", bytes: 5 });
    const ro = createClient({ baseUrl: sim.url, apiKey: sim.readOnlyApiKey });
    const err = await rejectionOf(storageEvent.delete(ctxWith(ro), id, outs));
    expect(err.message).toContain("403");
    expect(sim.state().storageEvents).toHaveLength(1);
  });

  test("connection reset after the DELETE was handled: confirmed gone by listing", async () => {
    const { id, outs } = await storageEvent.create(ctxWith(), { name: "reaching_used_space", bucketName: "photos", bytes: 5 });
    await admin(sim.url, "POST", "/faults", { resetRate: 1, afterHandling: true, path: "/storage/notifications/v1/event", method: "DELETE" });
    await storageEvent.delete(ctxWith(), id, outs);
    expect(sim.state().storageEvents).toEqual([]);
    expect(sim.requests().filter((r) => r.method === "DELETE")).toHaveLength(1);
  });
});
