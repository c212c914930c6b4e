/**
 * A stack of 200 StorageEvents through the real CLI, on the dynamic path and through the
 * plugin: the requests of an `up` and of a `refresh`, counted from the simulator's request log.
 * Calls of one run share their event lists (provider/resources/storage/eventLists.ts): creates
 * that start within the batching window share a pre-check list, and reads share a list for its
 * whole age limit. So a run takes a new list at most once per window of its own duration,
 * however fast the machine: that rule is what is asserted here. How many lists an `up` of N
 * takes on a given machine (the N/50 + 2 target) is a speed figure, measured by
 * bench/largeStacks.ts.
 *
 * Needs `npx tsc -p tsconfig.json` first: the dynamic provider and the plugin load `dist/`.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { CREATE_CHECK_WINDOW_MS, READ_MAX_AGE_MS } from "../../provider/resources/storage/eventLists";
import { StorageEvent } from "../../sdk/nodejs";
import { startSimulator, type RequestLogEntry, type RunningSimulator } from "../../simulator";
import { createTestStack, type TestStack } from "./harness";
import { pluginPathDir } from "./pluginSupport";

jest.setTimeout(600_000);

const N = 200;
const LIST = "/storage/notifications/v1/events";
const EVENT = "/storage/notifications/v1/event";
const opts = { color: "never" as const };

/** A resource of the plugin by schema token, as a generated SDK's class registers it. */
class PluginStorageEvent extends pulumi.CustomResource {
  constructor(name: string, props: pulumi.Inputs) {
    super("cloudplatform:index:StorageEvent", name, { ...props, uuid: undefined });
  }
}

function program(plugin: boolean): PulumiFn {
  return async () => {
    for (let i = 0; i < N; i++) {
      const args = { name: "reaching_used_space", storageName: "large", bucketName: `bucket-${i}`, bytes: 1000 + i };
      if (plugin) new PluginStorageEvent(`event-${i}`, args);
      else new StorageEvent(`event-${i}`, { ...args, name: "reaching_used_space" });
    }
  };
}

/** The requests logged while `work` runs, and how long it ran (ms). */
async function requestsDuring(sim: RunningSimulator, work: () => Promise<unknown>): Promise<{ log: RequestLogEntry[]; elapsedMs: number }> {
  const before = sim.requests().at(-1)?.seq ?? 0;
  const started = Date.now();
  await work();
  return { log: sim.requests().filter((r) => r.seq > before), elapsedMs: Date.now() - started };
}

/**
 * Most lists a run of `elapsedMs` may take when a new one is taken only once the newest is older
 * than `windowMs`: list starts lie more than a window apart, all within the run. Under the
 * 600 s test limit this stays far below one list per resource.
 */
function listBound(elapsedMs: number, windowMs: number): number {
  return Math.floor(elapsedMs / windowMs) + 1;
}

const count = (log: RequestLogEntry[], method: string, p: string) => log.filter((r) => r.method === method && r.path === p).length;

describe.each([
  ["dynamic path", false],
  ["plugin", true],
] as const)("%s", (_label, plugin) => {
  let sim: RunningSimulator;
  let t: TestStack | undefined;

  beforeAll(async () => {
    sim = await startSimulator();
    t = await createTestStack({
      projectName: plugin ? "large-stack-plugin" : "large-stack",
      program: program(plugin),
      config: { "cloudplatform:baseUrl": { value: sim.url }, "cloudplatform:apiKey": { value: sim.apiKey, secret: true } },
      ...(plugin ? { envVars: { PATH: `${pluginPathDir()}${path.delimiter}${process.env.PATH ?? ""}` } } : {}),
    });
  });

  afterAll(async () => {
    t?.discard(); // the simulator closes next: no destroy of 200 events (other suites test destroy)
    await sim?.close();
  });

  test(`an up of ${N} events takes a new list at most once per batching window`, async () => {
    const { log, elapsedMs } = await requestsDuring(sim, () => t!.stack.up(opts));
    expect(count(log, "POST", EVENT)).toBe(N);
    expect(sim.state().storageEvents).toHaveLength(N);
    const lists = count(log, "GET", LIST);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(listBound(elapsedMs, CREATE_CHECK_WINDOW_MS));
    expect(log.length).toBe(N + lists);
  });

  test(`a refresh of ${N} events takes a new list at most once per read age limit and writes nothing`, async () => {
    const { log, elapsedMs } = await requestsDuring(sim, () => t!.stack.refresh(opts));
    const lists = count(log, "GET", LIST);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(listBound(elapsedMs, READ_MAX_AGE_MS));
    expect(log.length).toBe(lists);
  });
});
