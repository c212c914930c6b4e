/**
 * A stack of 200 StorageEvents through the real CLI, on the dynamic path and through the
 * plugin: the requests of an `up` and of a `refresh`, counted from the simulator's request log.
 * Reads of one run share their event lists, so these counts stay flat as N grows:
 * an `up` of N creates lists at most N/50 + 2 times (creates that start within the batching
 * window share a pre-check list), a refresh at most twice (one list shared by every read).
 *
 * Needs `npx tsc -p tsconfig.json` first: the dynamic provider and the plugin load `dist/`.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
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

/** The requests logged while `work` runs, by method and path. */
async function requestsDuring(sim: RunningSimulator, work: () => Promise<unknown>): Promise<RequestLogEntry[]> {
  const before = sim.requests().at(-1)?.seq ?? 0;
  await work();
  return sim.requests().filter((r) => r.seq > before);
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
    try {
      await t?.cleanup();
    } finally {
      await sim?.close();
    }
  });

  test(`an up of ${N} events lists them at most ${N / 50 + 2} times`, async () => {
    const log = await requestsDuring(sim, () => t!.stack.up(opts));
    expect(count(log, "POST", EVENT)).toBe(N);
    expect(sim.state().storageEvents).toHaveLength(N);
    const lists = count(log, "GET", LIST);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(N / 50 + 2);
    expect(log.length).toBe(N + lists);
  });

  test(`a refresh of ${N} events lists them at most twice and writes nothing`, async () => {
    const log = await requestsDuring(sim, () => t!.stack.refresh(opts));
    const lists = count(log, "GET", LIST);
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(2);
    expect(log.length).toBe(lists);
  });
});
