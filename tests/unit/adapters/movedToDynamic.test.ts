/**
 * A resource moved from an explicit provider back to the stack's account (its URN aliased by the
 * SDK) reaches the dynamic provider with a state the plugin wrote: no `__provider` in its
 * outputs, from which the dynamic-provider host would load refresh and delete ("code must be a
 * string, not undefined"). The dynamic adapter then reports a change and its update writes
 * nothing to the API and returns the state as it was, for the host to store with `__provider`.
 * A state that has `__provider` (every stack written by the dynamic path) diffs as before.
 */
import { createClient } from "../../../provider/api";
import { toDynamicHandlers } from "../../../provider/dynamic/adapter";
import { storageEvent } from "../../../provider/resources/storageEvent";
import { providerSource } from "../../../sdk/nodejs/internal/dynamicRegistration";
import { startSimulator, type RunningSimulator } from "../../../simulator";
import { newKey } from "../api/helpers";
import { contextOf } from "../resources/context";

const EVENT = { name: "reaching_used_space", storageName: "moved", bytes: 5 };
const PROVIDER = { __provider: providerSource("StorageEvent") };

let sim: RunningSimulator;
let uuid = "";
let handlers: ReturnType<typeof toDynamicHandlers>;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey() });
  const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
  uuid = String((await client.storage.notifications.create(EVENT)).uuid);
  handlers = toDynamicHandlers(storageEvent, () => contextOf(client), () => [sim.apiKey]);
});
afterAll(async () => sim.close());

/** The writes the simulator received after `since` requests. */
const writesSince = (since: number) =>
  sim
    .requests()
    .slice(since)
    .filter((r) => r.method !== "GET");

test("a state the dynamic path wrote diffs as before: no change", async () => {
  const olds = { ...EVENT, uuid, ...PROVIDER };
  expect((await handlers.diff(uuid, olds, { ...EVENT, ...PROVIDER })).changes).toBe(false);
});

test("a state the plugin wrote (no __provider) is a change, whose update writes nothing and keeps the state", async () => {
  const olds = { ...EVENT, uuid };
  expect((await handlers.diff(uuid, olds, { ...EVENT, ...PROVIDER })).changes).toBe(true);
  const before = sim.requests().length;
  expect((await handlers.update(uuid, olds, { ...EVENT, ...PROVIDER })).outs).toEqual(olds);
  expect(writesSince(before)).toEqual([]);
});

test("a real change in such a state is still made", async () => {
  const olds = { ...EVENT, uuid };
  const before = sim.requests().length;
  const outs = (await handlers.update(uuid, olds, { ...EVENT, bytes: 9, ...PROVIDER })).outs as { bytes: number };
  expect(outs.bytes).toBe(9);
  expect(writesSince(before).map((r) => r.method)).toEqual(["PUT"]);
});
