/**
 * StorageEvent ownership through real `pulumi up` runs: an event is never taken over silently,
 * never lost to a rename or a replacement, and a resource deletes only the event it owns.
 * Every case asserts the simulator's events and its request log, not only Pulumi's summary.
 */
import * as pulumi from "@pulumi/pulumi";
import { createClient, type CloudPlatformClient } from "../../provider/api";
import { StorageEvent, type StorageEventArgs } from "../../sdk/nodejs";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { createTestStack, resourcesByName, type TestStack } from "./harness";
import { keyLeaksInState } from "./stateSecrets";
import { rejectionMessage } from "../reliability/support";

jest.setTimeout(600_000);

interface Declared {
  resource: string;
  args: StorageEventArgs;
  opts?: pulumi.CustomResourceOptions;
  /** Created only after every resource declared before it (so a failing one follows the others). */
  afterOthers?: boolean;
}

const KEY = `cpk_own_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
const opts = { color: "never" as const };
const BACKUPS: StorageEventArgs = { name: "reaching_used_space", storageName: "backups", bytes: 1_000_000 };

let sim: RunningSimulator;
let api: CloudPlatformClient;
const stacks: TestStack[] = [];

/** A stack whose inline program declares what `declared()` returns at the time of the run. */
async function stackDeclaring(projectName: string, declared: () => Declared[]): Promise<TestStack> {
  const t = await createTestStack({
    projectName,
    program: async () => {
      const out: Record<string, pulumi.Output<string>> = {};
      const made: StorageEvent[] = [];
      for (const d of declared()) {
        const event = new StorageEvent(d.resource, d.args, d.afterOthers ? { ...d.opts, dependsOn: [...made] } : d.opts);
        made.push(event);
        out[d.resource] = event.uuid;
      }
      return out;
    },
    config: {
      "cloudplatform:baseUrl": { value: sim.url },
      "cloudplatform:apiKey": { value: KEY, secret: true },
    },
  });
  stacks.push(t);
  return t;
}

const events = () => sim.state().storageEvents.map((e) => ({ ...e }));
const writes = () => sim.requests().filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.status}`);
const clearLog = () => fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });


beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY });
  api = createClient({ baseUrl: sim.url, apiKey: KEY });
});

afterAll(async () => {
  try {
    for (const t of stacks) await t.cleanup();
  } finally {
    await sim?.close();
  }
});

describe("one stack, one event, renamed and replaced", () => {
  let declared: Declared[] = [];
  let t: TestStack;
  let uuid: string;

  beforeAll(async () => {
    t = await stackDeclaring("storage-ownership", () => declared);
  });

  test("a rename without an alias fails before any write; the event and the stack's record of it stay", async () => {
    declared = [{ resource: "backups-space", args: BACKUPS }];
    const up = await t.stack.up(opts);
    uuid = String(up.outputs["backups-space"]?.value);
    expect(events()).toEqual([expect.objectContaining({ uuid, storage_name: "backups", bytes: 1_000_000 })]);

    await clearLog();
    declared = [{ resource: "backups-space-renamed", args: BACKUPS }];
    const message = await rejectionMessage(t.stack.up(opts));
    expect(message).toContain(`already exists (uuid ${uuid}, bytes 1000000)`);
    expect(message).toContain(`adoptUuid: "${uuid}"`);
    expect(message).toContain("aliases: [{ name: \"<old name>\" }]");
    expect(message).not.toContain(KEY);
    expect(writes()).toEqual([]);
    expect(events()).toEqual([expect.objectContaining({ uuid })]);
    const state = await resourcesByName(t.stack);
    expect(state.get("backups-space")?.id).toBe(uuid);
    expect(state.has("backups-space-renamed")).toBe(false);
  });

  test("a rename with an alias moves the record, with no write", async () => {
    await clearLog();
    declared = [{ resource: "backups-space-renamed", args: BACKUPS, opts: { aliases: [{ name: "backups-space" }] } }];
    const up = await t.stack.up(opts);
    expect(up.outputs["backups-space-renamed"]?.value).toBe(uuid);
    expect(writes()).toEqual([]);
    expect(events()).toEqual([expect.objectContaining({ uuid, bytes: 1_000_000 })]);
    expect([...(await resourcesByName(t.stack)).keys()]).toEqual(["backups-space-renamed"]);
    expect((await t.stack.preview(opts)).changeSummary).toEqual({ same: 2 });
  });

  test("a rename that adopts the event explicitly: the old resource's delete leaves it to the new one", async () => {
    await clearLog();
    declared = [{ resource: "backups-space-final", args: { ...BACKUPS, adoptUuid: uuid } }];
    const up = await t.stack.up(opts);
    expect(up.summary.resourceChanges).toMatchObject({ create: 1, delete: 1 });
    expect(up.outputs["backups-space-final"]?.value).toBe(uuid);
    expect(writes()).toEqual([]);
    expect(events()).toEqual([expect.objectContaining({ uuid, bytes: 1_000_000 })]);
    expect((await resourcesByName(t.stack)).get("backups-space-final")?.id).toBe(uuid);
    expect((await t.stack.preview(opts)).changeSummary).toEqual({ same: 2 });
    expect((await t.stack.refresh(opts)).summary.resourceChanges).toEqual({ same: 2 });
  });

  test.each([
    ["storageName", { storageName: "backups-2" }],
    ["bucketName", { bucketName: "nightly" }],
    ["name", { name: "reaching_used_traffic" as const }],
  ])("a %s change replaces: the new event is created, then only the old uuid is deleted", async (_field, change) => {
    const before = (await resourcesByName(t.stack)).get("backups-space-final")?.id as string;
    await clearLog();
    const current = declared[0]!;
    declared = [{ resource: current.resource, args: { ...current.args, ...change, adoptUuid: undefined } }];
    const up = await t.stack.up(opts);
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(writes()).toEqual(["POST 200", "DELETE 204"]);
    const now = String(up.outputs[current.resource]?.value);
    expect(now).not.toBe(before);
    expect(events()).toEqual([expect.objectContaining({ uuid: now })]);
    expect((await resourcesByName(t.stack)).get(current.resource)?.id).toBe(now);
    expect((await t.stack.preview(opts)).changeSummary).toEqual({ same: 2 });
  });

  test("the API key is in no backend file and, decrypted, only in the provider config; destroy deletes the one event", async () => {
    expect(await keyLeaksInState(t.stack, t.backendUrl, KEY)).toEqual([]);
    await clearLog();
    await t.stack.destroy(opts);
    expect(writes()).toEqual(["DELETE 204"]);
    expect(events()).toEqual([]);
  });
});

test("two stacks declaring the same event: the second fails clearly; destroying it leaves the first's event", async () => {
  const first = await stackDeclaring("storage-owner-a", () => [{ resource: "space", args: BACKUPS }]);
  const owned = String((await first.stack.up(opts)).outputs["space"]?.value);

  const second = await stackDeclaring("storage-owner-b", () => [
    { resource: "own", args: { name: "reaching_used_requests", bucketName: "b-only", count: 5 } },
    { resource: "space", args: BACKUPS, afterOthers: true },
  ]);
  await clearLog();
  const message = await rejectionMessage(second.stack.up(opts));
  expect(message).toContain(`already exists (uuid ${owned}`);
  expect(message).toContain("adoptUuid");
  expect(writes()).toEqual(["POST 200"]);
  expect(events().map((e) => e.bucket_name ?? e.storage_name).sort()).toEqual(["b-only", "backups"]);

  await clearLog();
  await second.stack.destroy(opts);
  expect(writes()).toEqual(["DELETE 204"]);
  expect(events()).toEqual([expect.objectContaining({ uuid: owned, storage_name: "backups", bytes: 1_000_000 })]);
  expect((await first.stack.preview({ ...opts, refresh: true })).changeSummary).toEqual({ same: 2 });
  await first.stack.destroy(opts);
  expect(events()).toEqual([]);
});

describe("explicit adoption of an event made outside Pulumi", () => {
  let declared: Declared[] = [];
  let t: TestStack;

  beforeAll(async () => {
    t = await stackDeclaring("storage-adopt", () => declared);
  });

  test("an adoptUuid of another event is refused before any write, naming both", async () => {
    const other = await api.storage.notifications.create({ name: "reaching_used_space", storageName: "elsewhere", bytes: 1 });
    await clearLog();
    declared = [{ resource: "space", args: { ...BACKUPS, adoptUuid: String(other.uuid) } }];
    const message = await rejectionMessage(t.stack.up(opts));
    expect(message).toContain(`Cannot adopt storage event ${other.uuid}: it is reaching_used_space for storage "elsewhere"`);
    expect(message).toContain('declares reaching_used_space for storage "backups"');
    expect(writes()).toEqual([]);
    await fetch(`${sim.url}/__admin/events/${other.uuid}`, { method: "DELETE" });
  });

  test("one event, zero POSTs; then the resource owns it: a limit change updates it, destroy deletes it", async () => {
    const made = await api.storage.notifications.create({ name: "reaching_used_space", storageName: "backups", bytes: 1_000_000 });
    await clearLog();
    declared = [{ resource: "space", args: { ...BACKUPS, adoptUuid: String(made.uuid) } }];
    const up = await t.stack.up(opts);
    expect(up.outputs["space"]?.value).toBe(made.uuid);
    expect(writes()).toEqual([]);
    expect(events()).toEqual([expect.objectContaining({ uuid: made.uuid, bytes: 1_000_000 })]);
    expect((await t.stack.preview(opts)).changeSummary).toEqual({ same: 2 });
    expect((await t.stack.refresh(opts)).summary.resourceChanges).toEqual({ same: 2 });

    declared = [{ resource: "space", args: { ...BACKUPS, bytes: 2_000_000 } }];
    await clearLog();
    expect((await t.stack.up(opts)).summary.resourceChanges).toEqual({ same: 1, update: 1 });
    expect(writes()).toEqual(["PUT 204"]);
    expect(events()).toEqual([expect.objectContaining({ uuid: made.uuid, bytes: 2_000_000 })]);

    await clearLog();
    await t.stack.destroy(opts);
    expect(writes()).toEqual(["DELETE 204"]);
    expect(events()).toEqual([]);
  });
});
