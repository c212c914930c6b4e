/**
 * StorageEvent through the real Pulumi CLI (Automation API) against a simulator started for
 * this file: up / no-change preview / refresh, in-place update vs replace, drift from an
 * out-of-band delete, a duplicate event, an invalid input beside live events at preview,
 * destroy, and no API key in the exported state.
 *
 * Needs `npx tsc -p tsconfig.json` first: the dynamic provider loads `dist/` through the
 * self-linked package.
 */
import * as pulumi from "@pulumi/pulumi";
import { createClient, type CloudPlatformClient } from "../../provider/api";
import { StorageEvent, type StorageEventArgs } from "../../sdk/nodejs";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { createTestStack, resourcesByName, type TestStack } from "./harness";
import { keyLeaksInState } from "./stateSecrets";

// Pulumi runs take seconds each; the project-level `testTimeout` in jest.config.js is not applied
// by Jest (it is a global-only option), so the file sets its own.
jest.setTimeout(600_000);

/** The resources the inline program declares; tests edit it between runs. */
let declared: Array<{ resource: string; args: StorageEventArgs }> = [];

const BASE: Array<{ resource: string; args: StorageEventArgs }> = [
  { resource: "space", args: { name: "reaching_used_space", storageName: "media", bytes: 1000 } },
  { resource: "files", args: { name: "reaching_files_quantity", storageName: "media", bucketName: "photos", count: 10 } },
  { resource: "traffic", args: { name: "reaching_used_traffic", bucketName: "photos", bytes: 2000 } },
  { resource: "requests", args: { name: "reaching_used_requests", storageName: "media", count: 100, clientId: 42 } },
];

const KEY = `cpk_it_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
let sim: RunningSimulator;
let api: CloudPlatformClient;
let t: TestStack | undefined;

const opts = { color: "never" as const };

function withArgs(resource: string, change: Partial<StorageEventArgs>): Array<{ resource: string; args: StorageEventArgs }> {
  return declared.map((d) => (d.resource === resource ? { resource, args: { ...d.args, ...change } } : d));
}

/** The simulator's events, by name, as the API stores them. */
function liveEvents() {
  return sim.state().storageEvents.map((e) => ({ ...e }));
}

function writesLogged() {
  return sim.requests().filter((r) => r.method !== "GET");
}

/** The key is in no backend file and, decrypted, only in secret-marked values, never in an event. */
async function expectNoKeyInState(): Promise<void> {
  expect(await keyLeaksInState(t!.stack, t!.backendUrl, KEY)).toEqual([]);
}

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY });
  api = createClient({ baseUrl: sim.url, apiKey: KEY });
  t = await createTestStack({
    projectName: "storage-event-it",
    program: async () => {
      const out: Record<string, pulumi.Output<string>> = {};
      for (const d of declared) out[d.resource] = new StorageEvent(d.resource, d.args).uuid;
      return out;
    },
    config: {
      "cloudplatform:baseUrl": { value: sim.url },
      "cloudplatform:apiKey": { value: KEY, secret: true },
    },
  });
});

afterAll(async () => {
  try {
    await t?.cleanup();
  } finally {
    await sim?.close();
  }
});

test("one event of each name: up, then a no-change preview and refresh", async () => {
  declared = [...BASE];
  const up = await t!.stack.up(opts);
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toEqual({ create: 5 });

  const live = liveEvents();
  expect(live).toHaveLength(4);
  expect(live).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: "reaching_used_space", storage_name: "media", bytes: 1000 }),
      expect.objectContaining({ name: "reaching_files_quantity", storage_name: "media", bucket_name: "photos", count: 10 }),
      expect.objectContaining({ name: "reaching_used_traffic", bucket_name: "photos", bytes: 2000 }),
      expect.objectContaining({ name: "reaching_used_requests", storage_name: "media", count: 100, client_id: 42 }),
    ]),
  );
  for (const d of BASE) expect(live.map((e) => e.uuid)).toContain(up.outputs[d.resource]?.value);

  const preview = await t!.stack.preview(opts);
  expect(preview.changeSummary).toEqual({ same: 5 });
  const refresh = await t!.stack.refresh(opts);
  expect(refresh.summary.resourceChanges).toEqual({ same: 5 });
  expect((await t!.stack.preview(opts)).changeSummary).toEqual({ same: 5 });
  await expectNoKeyInState();
});

test("a different serialized provider in the state (a new build) causes no update", async () => {
  const state = await t!.stack.exportStack();
  let touched = 0;
  for (const r of (state.deployment as any).resources as Array<Record<string, any>>) {
    for (const bag of [r.inputs, r.outputs]) {
      if (bag && typeof bag.__provider === "string") {
        bag.__provider += "\n// serialized by an older build of pulumi-cloudplatform\n";
        touched++;
      }
    }
  }
  expect(touched).toBe(8);
  await t!.stack.importStack(state);
  expect((await t!.stack.preview(opts)).changeSummary).toEqual({ same: 5 });
  const up = await t!.stack.up(opts);
  expect(up.summary.resourceChanges).toEqual({ same: 5 });
});

test("a limit change updates in place; a bucket change replaces", async () => {
  const before = new Map(liveEvents().map((e) => [e.name, e.uuid]));
  await fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });

  declared = withArgs("space", { bytes: 1500 });
  const update = await t!.stack.up(opts);
  expect(update.summary.resourceChanges).toEqual({ same: 4, update: 1 });
  expect(writesLogged().map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 204"]);
  expect(liveEvents().find((e) => e.name === "reaching_used_space")).toMatchObject({ uuid: before.get("reaching_used_space"), bytes: 1500 });

  await fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });
  declared = withArgs("files", { bucketName: "videos" });
  const replace = await t!.stack.up(opts);
  expect(replace.summary.resourceChanges).toEqual({ same: 4, replace: 1 });
  expect(writesLogged().map((r) => `${r.method} ${r.status}`)).toEqual(["POST 200", "DELETE 204"]);
  const files = liveEvents().filter((e) => e.name === "reaching_files_quantity");
  expect(files).toEqual([expect.objectContaining({ bucket_name: "videos", count: 10 })]);
  expect(files[0]?.uuid).not.toBe(before.get("reaching_files_quantity"));

  expect((await t!.stack.preview(opts)).changeSummary).toEqual({ same: 5 });
  expect((await t!.stack.refresh(opts)).summary.resourceChanges).toEqual({ same: 5 });
});

test("a limit changed outside Pulumi shows as drift on refresh and is put back by up", async () => {
  const space = liveEvents().find((e) => e.name === "reaching_used_space")!;
  await fetch(`${sim.url}/__admin/events/${space.uuid}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ bytes: 7 }),
  });
  const preview = await t!.stack.preview({ ...opts, refresh: true });
  expect(preview.changeSummary).toEqual({ same: 4, update: 1 });
  const up = await t!.stack.up({ ...opts, refresh: true });
  expect(up.summary.resourceChanges).toEqual({ same: 4, update: 1 });
  expect(liveEvents().find((e) => e.uuid === space.uuid)?.bytes).toBe(1500);
});

test("an event deleted outside Pulumi: preview --refresh shows it recreated, up --refresh recreates it", async () => {
  const traffic = liveEvents().find((e) => e.name === "reaching_used_traffic")!;
  const res = await fetch(`${sim.url}/__admin/events/${traffic.uuid}`, { method: "DELETE" });
  expect(res.ok).toBe(true);
  expect(liveEvents().some((e) => e.name === "reaching_used_traffic")).toBe(false);

  const preview = await t!.stack.preview({ ...opts, refresh: true });
  expect(preview.changeSummary).toEqual({ same: 4, create: 1 });
  const up = await t!.stack.up({ ...opts, refresh: true });
  expect(up.summary.resourceChanges).toEqual({ same: 4, create: 1 });
  const recreated = liveEvents().filter((e) => e.name === "reaching_used_traffic");
  expect(recreated).toEqual([expect.objectContaining({ bucket_name: "photos", bytes: 2000 })]);
  expect(recreated[0]?.uuid).not.toBe(traffic.uuid);
  expect(up.outputs["traffic"]?.value).toBe(recreated[0]?.uuid);
  expect((await t!.stack.preview(opts)).changeSummary).toEqual({ same: 5 });
});

test("a duplicate event fails up with a clear message and loses nothing else", async () => {
  const existing = await api.storage.notifications.create({ name: "reaching_used_space", storageName: "archive", bytes: 64 });
  const before = await resourcesByName(t!.stack);
  declared = [...declared, { resource: "dup", args: { name: "reaching_used_space", storageName: "archive", bytes: 128 } }];

  let message = "";
  try {
    await t!.stack.up(opts);
  } catch (err) {
    message = String((err as Error).message);
  }
  expect(message).toContain("already exists");
  expect(message).toContain('reaching_used_space for storage "archive"');
  expect(message).toContain(String(existing.uuid));
  expect(message).toContain(`set \`adoptUuid: "${existing.uuid}"\``);
  expect(message).not.toContain(KEY);

  const after = await resourcesByName(t!.stack);
  expect(after.has("dup")).toBe(false);
  for (const name of ["space", "files", "traffic", "requests"]) {
    expect(after.get(name)?.id).toBe(before.get(name)?.id);
  }
  expect(liveEvents().find((e) => e.uuid === existing.uuid)).toMatchObject({ bytes: 64 });
  expect(liveEvents()).toHaveLength(5);

  // Two identical declarations in one program: the second one gets the same clear error.
  declared = [
    ...declared.filter((d) => d.resource !== "dup"),
    { resource: "twin-a", args: { name: "reaching_used_requests", bucketName: "twins", count: 1 } },
    { resource: "twin-b", args: { name: "reaching_used_requests", bucketName: "twins", count: 1 } },
  ];
  await expect(t!.stack.up(opts)).rejects.toThrow(/reaching_used_requests for no storage, bucket "twins": another StorageEvent of this program declares the same event/);
  const twins = await resourcesByName(t!.stack);
  expect([twins.has("twin-a"), twins.has("twin-b")].filter(Boolean)).toHaveLength(1);
  for (const name of ["space", "files", "traffic", "requests"]) expect(twins.has(name)).toBe(true);

  // Back to the base program; the out-of-band event is removed by hand (it is not the stack's).
  declared = declared.filter((d) => !d.resource.startsWith("twin"));
  await t!.stack.up(opts);
  await fetch(`${sim.url}/__admin/events/${existing.uuid}`, { method: "DELETE" });
  expect(liveEvents()).toHaveLength(4);
  await expectNoKeyInState();
});

// Every invalid input alone is tests/reliability/badInput.test.ts; here one beside live events:
// the preview fails naming the field, and nothing of what the stack already holds is touched.
test("an invalid input beside existing events fails at preview, naming the field, with no write", async () => {
  const good = declared;
  await fetch(`${sim.url}/__admin/requests`, { method: "DELETE" });
  declared = [...good, { resource: "invalid", args: { name: "reaching_the_moon" as never, storageName: "media", bytes: 1 } }];
  let message = "";
  try {
    await t!.stack.preview(opts);
  } catch (err) {
    message = String((err as Error).message);
  } finally {
    declared = good;
  }
  for (const text of ["name", "reaching_used_space", "reaching_files_quantity", "reaching_used_traffic", "reaching_used_requests"]) expect(message).toContain(text);
  expect(writesLogged()).toEqual([]);
  expect(liveEvents()).toHaveLength(4);
});

test("destroy deletes every event", async () => {
  await expectNoKeyInState();
  const destroy = await t!.stack.destroy(opts);
  expect(destroy.summary.resourceChanges).toEqual({ delete: 5 });
  expect(liveEvents()).toEqual([]);
  expect(await api.storage.notifications.list()).toEqual([]);
});
