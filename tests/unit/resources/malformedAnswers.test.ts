/**
 * A malformed answer never means "absent" (provider/resources/absence.ts), and partial state is
 * reported with its id (provider/resources/partial.ts): both lifecycles against a simulator
 * started for this file, through a client whose reads can be made to fail the way the
 * validating client fails on a malformed answer (a ResponseFormatError), or to return what a
 * lax one would have returned (items without their identity, a cluster without a version).
 * Every case asserts what was written (the simulator's request log) and what is left.
 */
import {
  ConnectionError,
  createClient,
  NotFoundError,
  RequestAbortedError,
  ResponseFormatError,
  type CloudPlatformClient,
  type K8sCluster,
  type NotificationEvent,
} from "../../../provider/api";
import { checkBody } from "../../../provider/api/schema";
import { eventListSchema } from "../../../provider/api/storage/notifications";
import { PresenceUnclearError } from "../../../provider/resources/absence";
import { createK8sClusterUpgradeLifecycle, type K8sClusterUpgradeOutputs } from "../../../provider/resources/k8sClusterUpgrade";
import type { LifecycleContext } from "../../../provider/resources/lifecycle";
import { PartialResourceError } from "../../../provider/resources/partial";
import { storageEvent, StorageEventConflictError, type StorageEventInputs, type StorageEventOutputs } from "../../../provider/resources/storageEvent";
import { WriteOutcomeUnknownError } from "../../../provider/resources/writeAttempts";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { admin, expectNoSecret, newKey, rejectionOf } from "../api/helpers";
import { contextOf } from "./context";

const KEY = newKey();
let sim: RunningSimulator;
let logs: string[];

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, timeScale: 40 });
});
afterAll(() => sim.close());
beforeEach(async () => {
  await admin(sim, "POST", "/reset");
  logs = [];
});

/** What the next calls of a read answer instead of the real thing (one entry per call). */
interface Spoilers {
  /**
   * `landAfter`: answer the real list, then let a held-back first create land (see `lateFirst`).
   * `plusListed`: the real list plus the items of {@link listedToo}, read from the wire by the
   * client's own list schema (items the tolerant reader lets through: no uuid, say).
   * `withoutOwn`: the real list without the events of {@link dropUuid}, plus {@link listedToo}.
   */
  list: Array<"ok" | "format" | "anonymous" | "landAfter" | "plusListed" | "withoutOwn">;
  getCluster: Array<"ok" | "format" | "noVersion" | "html404">;
  getTask: Array<"format">;
  create: Array<"noUuid" | "lateFirst" | "stoppedInFlight">;
}

let spoil: Spoilers;
/** The event list answer (wire form) whose items `plusListed` and `withoutOwn` add. */
let listedToo: Record<string, unknown> = {};
/** The uuid `withoutOwn` leaves out of the real list. */
let dropUuid = "";

/** The events of a wire list answer, as the client's schema reads them (a test error when it refuses them). */
function readListed(wire: Record<string, unknown>): NotificationEvent[] {
  const r = checkBody(eventListSchema, wire);
  if (!r.ok) throw new Error(`the list schema refused ${JSON.stringify(wire)}: ${JSON.stringify(r.mismatch)}`);
  return [...r.value];
}
/** A first create held back by `lateFirst`, landed by the list call marked `landAfter`. */
let heldBack: (() => Promise<unknown>) | undefined;
/** Fields the held-back create lands with instead of the sent ones (another limit: someone else's). */
let landsWith: Record<string, unknown> = {};
beforeEach(() => {
  landsWith = {};
  listedToo = {};
  dropUuid = "";
  spoil = { list: [], getCluster: [], getTask: [], create: [] };
  heldBack = undefined;
});

const formatError = (method: string, path: string) => new ResponseFormatError({ method, path, status: 200, field: "(body)", problem: "expected a JSON object, got text/html", received: "<!DOCTYPE html><html><head><title>Sign in...", mayHaveActed: true });

/**
 * The real client, except that the reads named in {@link spoil} answer as a malformed answer
 * makes the validating client answer: a ResponseFormatError (after its retries), or, for the
 * defence in depth, values a lax client would have let through.
 */
function spoiltClient(): CloudPlatformClient {
  const real = createClient({ baseUrl: sim.url, apiKey: KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  const n = real.storage.notifications;
  const k8s = real.cloud.k8s;
  const tasks = real.cloud.tasks;
  return {
    ...real,
    storage: {
      notifications: {
        ...n,
        list: async (options) => {
          const how = spoil.list.shift();
          if (how === "format") throw formatError("GET", "/storage/notifications/v1/events");
          const events = await n.list(options);
          if (how === "landAfter") await heldBack?.();
          if (how === "plusListed") return [...events, ...readListed(listedToo)];
          if (how === "withoutOwn") return [...events.filter((e) => e.uuid !== dropUuid), ...readListed(listedToo)];
          return how === "anonymous" ? events.map((e): NotificationEvent => ({ ...e, uuid: null })) : events;
        },
        create: async (event, params, options) => {
          const how = spoil.create.shift();
          if (how === "lateFirst") {
            // The first send travels slowly: the client gives up, the server acts later.
            heldBack = () => n.create({ ...event, ...landsWith }, params);
            throw new ConnectionError({
              method: "POST", path: "/storage/notifications/v1/event", target: "127.0.0.1", code: "ECONNABORTED", detail: "timeout of 1500ms exceeded", mayHaveReachedServer: true, timedOut: true,
            });
          }
          const made = await n.create(event, params, options);
          // Ctrl-C or customTimeouts ended the request after the server acted, before its answer.
          if (how === "stoppedInFlight") throw new RequestAbortedError("POST", EVENT);
          return how === "noUuid" ? { ...made, uuid: null } : made;
        },
      },
    },
    cloud: {
      ...real.cloud,
      k8s: {
        ...k8s,
        getCluster: async (projectId, regionId, clusterName, options) => {
          const how = spoil.getCluster.shift();
          const path = `/cloud/v2/k8s/clusters/${projectId}/${regionId}/${clusterName}`;
          if (how === "format") throw formatError("GET", path);
          if (how === "html404") throw new NotFoundError({ method: "GET", path, status: 404, serverMessage: "<html><body><h1>404 Not Found</h1></body></html>", body: "<html><body><h1>404 Not Found</h1></body></html>", mayHaveActed: false });
          const cluster = await k8s.getCluster(projectId, regionId, clusterName, options);
          return how === "noVersion" ? ({ ...cluster, version: "", status: "" } as K8sCluster) : cluster;
        },
      },
      tasks: {
        ...tasks,
        get: async (taskId, options) => {
          if (spoil.getTask.shift() === "format") throw formatError("GET", `/cloud/v1/tasks/${taskId}`);
          return tasks.get(taskId, options);
        },
      },
    },
  } as CloudPlatformClient;
}

function ctx(): LifecycleContext {
  return contextOf(spoiltClient(), (m) => logs.push(m));
}

const EVENT = "/storage/notifications/v1/event";
const writes = () => sim.requests().filter((r) => r.method !== "GET");
const handledPosts = () => sim.requests().filter((r) => r.method === "POST" && r.path === EVENT && r.status === 200);
const SPACE: StorageEventInputs = { name: "reaching_used_space", storageName: "media", bytes: 500 };

async function created(inputs: StorageEventInputs = SPACE): Promise<{ id: string; outs: StorageEventOutputs }> {
  return storageEvent.create(ctx(), inputs);
}

/**
 * A create that failed with partial state naming `reason`: the next `up` (an update of the
 * pending resource) records the one event the platform holds.
 */
async function expectPendingThenRecorded(err: Error, reason: string): Promise<void> {
  expect(err).toBeInstanceOf(PartialResourceError);
  expect(err.message).toContain(reason);
  const partial = err as PartialResourceError;
  const outs = await storageEvent.update(ctx(), partial.id, partial.properties as unknown as StorageEventOutputs, SPACE);
  expect(outs.uuid).toBe(sim.state().storageEvents[0]?.uuid);
  expect(sim.state().storageEvents).toHaveLength(1);
}

describe("StorageEvent read (refresh, preview --refresh)", () => {
  test.each([
    ["a malformed list (format error)", "format"],
    ["a list whose items lack their uuid", "anonymous"],
  ] as const)("%s: an error naming the event, never 'gone'; the event is untouched", async (_label, how) => {
    const { id, outs } = await created();
    spoil.list.push(how);
    const err = await rejectionOf(storageEvent.read(ctx(), id, outs));
    expect(err).toBeInstanceOf(PresenceUnclearError);
    expect(err.message).toContain(`Cannot tell whether storage event reaching_used_space for storage "media", no bucket (uuid ${id}) exists`);
    expect(err.message).toContain("the resource stays in the stack as recorded");
    expect(err.message).toContain("never taken to mean that an object is absent");
    expectNoSecret(err, KEY);
    expect(sim.state().storageEvents).toHaveLength(1);
  });

  test("an item without uuid but with the resource's identity, where its own event was: unclear, never 'gone'; nothing dropped", async () => {
    const { id, outs } = await created();
    dropUuid = id;
    listedToo = { reaching_used_space: [{ storage_name: "media", bytes: 500 }] };
    spoil.list.push("withoutOwn");
    const err = await rejectionOf(storageEvent.read(ctx(), id, outs));
    expect(err).toBeInstanceOf(PresenceUnclearError);
    // The list itself was read (the tolerant reader lets the item through); the lifecycle finds it unclear.
    expect(err.message).toMatch(/ has 1 item\(s\) without their identifying fields/);
    expect(err.message).toContain("the resource stays in the stack as recorded");
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: id })]);
    expect(writes()).toHaveLength(1);
  });

  test("an item without uuid of another identity: also unclear for a read by uuid (only the uuid identifies an event; its identity may have drifted)", async () => {
    const { id, outs } = await created();
    dropUuid = id;
    listedToo = { reaching_used_traffic: [{ bucket_name: "other", bytes: 1 }] };
    spoil.list.push("withoutOwn");
    const err = await rejectionOf(storageEvent.read(ctx(), id, outs));
    expect(err).toBeInstanceOf(PresenceUnclearError);
    expect(err.message).toMatch(/ has 1 item\(s\) without their identifying fields/);
    expect(sim.state().storageEvents).toHaveLength(1);
  });

  test("a well-formed list that lacks it: gone (the one way to 'absent')", async () => {
    const { id, outs } = await created();
    await admin(sim, "DELETE", `/events/${id}`);
    expect(await storageEvent.read(ctx(), id, outs)).toBeUndefined();
  });
});

describe("StorageEvent create", () => {
  test("the pre-check list malformed (format error): a clear error and no POST", async () => {
    await created({ name: "reaching_used_traffic", bucketName: "other", bytes: 1 });
    spoil.list.push("format");
    const err = await rejectionOf(created());
    expect(err).toBeInstanceOf(PresenceUnclearError);
    expect(err.message).toContain("nothing was created: a create checks the event list before it sends anything");
    expect(writes()).toHaveLength(1);
  });

  test("the pre-check list with an item that describes nothing (only its kind, every field null): a clear error and no POST", async () => {
    listedToo = { reaching_used_space: [{ uuid: null, storage_name: null, bucket_name: null, bytes: null, count: null }] };
    spoil.list.push("plusListed");
    const err = await rejectionOf(created());
    expect(err).toBeInstanceOf(PresenceUnclearError);
    expect(err.message).toContain("nothing was created: a create checks the event list before it sends anything");
    expect(writes()).toEqual([]);
  });

  test("the pre-check list with an item without uuid of the declared identity: the identity is taken, a conflict and no POST", async () => {
    listedToo = { reaching_used_space: [{ storage_name: "media", bytes: 100 }] };
    spoil.list.push("plusListed");
    const err = await rejectionOf(created());
    expect(err).toBeInstanceOf(StorageEventConflictError);
    expect(err.message).toContain("already exists (uuid not shown, bytes 100)");
    expect(writes()).toEqual([]);
  });

  test("the pre-check list whose items lack their uuid but are of other identities: the create goes on, one POST", async () => {
    await created({ name: "reaching_used_traffic", bucketName: "other", bytes: 1 });
    spoil.list.push("anonymous");
    const { id } = await created();
    expect(handledPosts()).toHaveLength(2);
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ bucket_name: "other" }), expect.objectContaining({ uuid: id, storage_name: "media" })]);
  });

  test("the POST's answer lost after the server acted, and the read-back malformed: partial state with a provisional id, one POST", async () => {
    await admin(sim, "POST", "/faults", { resetRate: 1, afterHandling: true, path: EVENT, method: "POST" });
    spoil.list.push("ok", "format"); // the pre-check list is fine, the read-back is not
    const err = await rejectionOf(storageEvent.create(ctx(), SPACE));
    expect(err).toBeInstanceOf(PartialResourceError);
    const partial = err as PartialResourceError;
    expect(partial.cause).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(partial.id).toMatch(/^pending-create:/);
    expect(partial.properties).toEqual({ ...SPACE, uuid: "" });
    expect(partial.message).toContain("no manual step is needed");
    expect(handledPosts()).toHaveLength(1);
  });

  test("pending, then refresh: read finds the event by its identity and reports its uuid", async () => {
    const { id } = await created();
    const pendingId = `pending-create:${JSON.stringify([SPACE.name, SPACE.storageName, "", null])}`;
    const r = await storageEvent.read(ctx(), pendingId, { ...SPACE, uuid: "" });
    expect(r).toEqual({ id, outs: { ...SPACE, uuid: id }, inputs: SPACE });
  });

  test("pending, then up: the update records the event the first POST made (no second POST), or creates it when a well-formed list proves it never landed", async () => {
    const pendingId = `pending-create:${JSON.stringify([SPACE.name, SPACE.storageName, "", null])}`;
    const pending = { ...SPACE, uuid: "" } as StorageEventOutputs;
    // It never landed: created now.
    const outs = await storageEvent.update(ctx(), pendingId, pending, SPACE);
    expect(outs.uuid).toBe(sim.state().storageEvents[0]?.uuid);
    expect(handledPosts()).toHaveLength(1);
    // It landed: recorded, with the declared limit PUT onto it.
    const again = await storageEvent.update(ctx(), pendingId, pending, { ...SPACE, bytes: 900 });
    expect(again).toEqual({ ...SPACE, bytes: 900, uuid: outs.uuid });
    expect(handledPosts()).toHaveLength(1);
    expect(writes().map((r) => r.method)).toEqual(["POST", "PUT"]);
    // The list malformed: an error, nothing written.
    spoil.list.push("format");
    const err = await rejectionOf(storageEvent.update(ctx(), pendingId, pending, SPACE));
    expect(err).toBeInstanceOf(PresenceUnclearError);
    expect(err.message).toContain("nothing was written; the resource stays in the stack as pending");
    expect(writes()).toHaveLength(2);
  });

  test("pending, then destroy: deletes the event found by identity; nothing when it never landed; an error when the list is malformed", async () => {
    const pendingId = `pending-create:${JSON.stringify([SPACE.name, SPACE.storageName, "", null])}`;
    const pending = { ...SPACE, uuid: "" } as StorageEventOutputs;
    await storageEvent.delete(ctx(), pendingId, pending);
    expect(writes()).toEqual([]);
    await created();
    spoil.list.push("format");
    expect(await rejectionOf(storageEvent.delete(ctx(), pendingId, pending))).toBeInstanceOf(PresenceUnclearError);
    expect(sim.state().storageEvents).toHaveLength(1);
    await storageEvent.delete(ctx(), pendingId, pending);
    expect(sim.state().storageEvents).toEqual([]);
    expect(sim.requests().filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual([204]);
  });

  test("an answer without uuid and a malformed list: partial state, one POST; the next up finds it", async () => {
    spoil.create.push("noUuid");
    spoil.list.push("ok", "format");
    await expectPendingThenRecorded(await rejectionOf(storageEvent.create(ctx(), SPACE)), "its answer has no uuid and the list could not show it");
    expect(handledPosts()).toHaveLength(1);
  });

  test("a re-sent create answered 409 by an event with the declared identity and limit: the first send landed late, recorded as this resource's", async () => {
    // The first send times out; the read-back finds nothing; right after it looked, the first
    // send lands; the second send meets it (409).
    spoil.create.push("lateFirst");
    spoil.list.push("ok", "landAfter");
    const { id, outs } = await storageEvent.create(ctx(), SPACE);
    expect(outs).toEqual({ ...SPACE, uuid: id });
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ uuid: id, bytes: 500 })]);
    expect(sim.requests().filter((r) => r.method === "POST").map((r) => r.status)).toEqual([200, 409]);
    expect(logs.join("\n")).toContain("the first create landed after all");
  });

  test("a create stopped (Ctrl-C, customTimeouts) while its POST was in flight: partial state (pending), no read-back, no second POST; the next up records the event", async () => {
    spoil.create.push("stoppedInFlight");
    const err = await rejectionOf(storageEvent.create(ctx(), SPACE));
    expect(sim.requests().filter((r) => r.method === "GET")).toHaveLength(1);
    await expectPendingThenRecorded(err, "the operation was stopped while the request was in flight");
    expect(handledPosts()).toHaveLength(1);
  });

  test("the same 409 followed by a malformed list: partial state (pending), never forgotten; the next up records the event", async () => {
    spoil.create.push("lateFirst");
    spoil.list.push("ok", "landAfter", "format");
    await expectPendingThenRecorded(await rejectionOf(storageEvent.create(ctx(), SPACE)), "was refused (409)");
    expect(sim.requests().filter((r) => r.method === "POST").map((r) => r.status)).toEqual([200, 409]);
  });

  test("the same 409 met by an event with another limit: the clear conflict error, nothing recorded", async () => {
    spoil.create.push("lateFirst");
    spoil.list.push("ok", "landAfter");
    landsWith = { bytes: 1 };
    const err = await rejectionOf(storageEvent.create(ctx(), SPACE));
    expect(err.message).toContain("An earlier attempt of this create failed without an answer");
    expect(sim.state().storageEvents).toEqual([expect.objectContaining({ bytes: 1 })]);
  });
});

describe("StorageEvent update and delete probes", () => {
  test("a PUT whose answer was lost and whose read-back is malformed: 'may have taken effect', one PUT, never a second", async () => {
    const { id, outs } = await created();
    await admin(sim, "POST", "/faults", { resetRate: 1, afterHandling: true, path: EVENT, method: "PUT" });
    spoil.list.push("format");
    const err = await rejectionOf(storageEvent.update(ctx(), id, outs, { ...SPACE, bytes: 900 }));
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(sim.requests().filter((r) => r.method === "PUT")).toHaveLength(1);
  });

  test("a DELETE whose answer was lost and whose read-back is malformed: never reported deleted, one DELETE", async () => {
    const { id, outs } = await created();
    await admin(sim, "POST", "/faults", { resetRate: 1, path: EVENT, method: "DELETE" });
    spoil.list.push("format");
    const err = await rejectionOf(storageEvent.delete(ctx(), id, outs));
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect(sim.state().storageEvents).toHaveLength(1);
    expect(sim.requests().filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  test("a DELETE answered by a 404 page that is not the API's (HTML): not 'already gone'", async () => {
    const { id, outs } = await created();
    const c = ctx();
    const client = c.client();
    const html404: CloudPlatformClient = {
      ...client,
      storage: {
        notifications: {
          ...client.storage.notifications,
          delete: async () => {
            throw new NotFoundError({ method: "DELETE", path: EVENT, status: 404, serverMessage: "<html>404 Not Found</html>", body: "<html>404 Not Found</html>", mayHaveActed: false });
          },
        },
      },
    };
    const err = await rejectionOf(storageEvent.delete({ ...c, client: () => html404 }, id, outs));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(logs.join("\n")).not.toContain("already gone");
  });
});

describe("K8sClusterUpgrade", () => {
  const lifecycle = createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } });
  const inputs = { projectId: 1, regionId: 76, clusterName: "demo-cluster", version: "v1.31.2", allowMultiStep: false, timeoutMinutes: 10, soakSeconds: 0 };
  const upgradePosts = () => sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/demo-cluster/upgrade"));
  const stored: K8sClusterUpgradeOutputs = { ...inputs, version: "v1.30.4", clusterId: "c", status: "Provisioned", previousVersion: "v1.30.4", upgradePath: [], taskIds: [] };

  test.each([
    ["a malformed cluster read", "format"],
    ["a cluster without version and status", "noVersion"],
    ["a 404 page that is not the API's", "html404"],
  ] as const)("read with %s: an error naming the cluster, never 'gone'", async (_label, how) => {
    spoil.getCluster.push(how);
    const err = await rejectionOf(lifecycle.read(ctx(), "1/76/demo-cluster", stored));
    expect(err).toBeInstanceOf(PresenceUnclearError);
    expect(err.message).toContain("Cannot tell whether cluster demo-cluster (project 1, region 76) exists");
  });

  test("read of a cluster the API says is gone (its own 404): gone", async () => {
    expect(await lifecycle.read(ctx(), "1/76/no-such", { ...stored, clusterName: "no-such" })).toBeUndefined();
  });

  test.each([["format"], ["noVersion"], ["html404"]] as const)("check (preview) with a cluster read %s: an error, not a verdict, and no write", async (how) => {
    spoil.getCluster.push(how);
    await expect(lifecycle.check(ctx(), { ...inputs }, new Set())).rejects.toThrow();
    expect(writes()).toEqual([]);
  });

  test.each([["format"], ["noVersion"]] as const)("create with the first cluster read %s: no upgrade POST", async (how) => {
    spoil.getCluster.push(how);
    await expect(lifecycle.create(ctx(), inputs)).rejects.toThrow(/demo-cluster/);
    expect(upgradePosts()).toEqual([]);
  });

  test("the task read malformed after the upgrade POST: partial state with the cluster id; the next up follows the same task, no second POST", async () => {
    spoil.getTask.push("format");
    const err = await rejectionOf(lifecycle.create(ctx(), inputs));
    expect(err).toBeInstanceOf(PartialResourceError);
    const partial = err as PartialResourceError;
    expect(partial.cause).toBeInstanceOf(ResponseFormatError);
    expect(partial.id).toBe("1/76/demo-cluster");
    expect(partial.properties).toMatchObject({ version: "v1.30.4", taskIds: [expect.any(String)], clusterName: "demo-cluster" });
    expect(upgradePosts()).toHaveLength(1);
    const outs = await lifecycle.update(ctx(), partial.id, partial.properties as unknown as K8sClusterUpgradeOutputs, inputs);
    expect(outs.version).toBe("v1.31.2");
    expect(upgradePosts()).toHaveLength(1);
  });

  test("the cluster read-back malformed after the task finished: partial state; the next up finds the target reached, no second POST", async () => {
    spoil.getCluster.push("ok", "format");
    const err = await rejectionOf(lifecycle.create(ctx(), inputs));
    expect(err).toBeInstanceOf(PartialResourceError);
    expect((err as PartialResourceError).id).toBe("1/76/demo-cluster");
    const outs = await lifecycle.update(ctx(), "1/76/demo-cluster", (err as PartialResourceError).properties as unknown as K8sClusterUpgradeOutputs, inputs);
    expect(outs).toMatchObject({ version: "v1.31.2", status: "Provisioned" });
    expect(upgradePosts()).toHaveLength(1);
  });
});
