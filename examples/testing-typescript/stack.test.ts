/**
 * Unit tests under Pulumi's mocks: no engine, no network. Every resource registration goes to
 * `newResource` and every lookup to `call`; the tests check what the program asks for and what it
 * declares, and run the provider's own input checks on it (no provider runs under mocks).
 */
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";
import { checkResourceInputs, settle } from "pulumi-cloudplatform/testing";
import { declareStack } from "./stack";

// Unit tests wait on nothing slow: one that hangs (an Output that never resolves) fails in seconds.
jest.setTimeout(30_000);

const resources: pulumi.runtime.MockResourceArgs[] = [];
const calls: pulumi.runtime.MockCallArgs[] = [];

/** What the mocked lookups answer, by function token (fields left out read null). */
const ANSWERS: Record<string, Record<string, unknown>> = {
  "cloudplatform:index:getProject": { id: 1, name: "default", isDefault: true },
  "cloudplatform:index:getRegion": { id: 76, displayName: "Luxembourg-2", state: "ACTIVE" },
};

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      resources.push(args);
      // The provider would compute a StorageEvent's uuid; the mock makes one up.
      const computed = args.type.endsWith(":StorageEvent") ? { uuid: `${args.name}-uuid` } : {};
      return { id: `${args.name}-id`, state: { ...args.inputs, ...computed } };
    },
    call: (args) => {
      calls.push(args);
      // What the platform would refuse, the mocks refuse too: the lookup fails with this message.
      if (args.inputs["name"] === "Nowhere-1") throw new Error("no region is named Nowhere-1");
      return ANSWERS[args.token] ?? {};
    },
  },
  "testing-typescript",
  "unit",
  false,
);

/** Declares the stack with `config` (program keys) and waits until every resource is registered. */
async function declare(config: Record<string, string> = {}) {
  resources.length = 0;
  calls.length = 0;
  pulumi.runtime.setAllConfig(Object.fromEntries(Object.entries(config).map(([k, v]) => [`testing-typescript:${k}`, v])));
  // settle: the outputs' values once the mocks have answered, or the reason one of them failed.
  return settle(declareStack());
}

/** The inputs of the one resource of `typeName` the program declared. */
function inputsOf(typeName: string): Record<string, unknown> {
  const found = resources.filter((r) => r.type.endsWith(`:${typeName}`));
  expect(found).toHaveLength(1);
  return found[0]!.inputs;
}

test("the lookups ask for the default project and a Kubernetes region", async () => {
  await declare();
  // Lookups run concurrently: compare them in token order.
  expect(calls.map((c) => [c.token, c.inputs]).sort()).toEqual([
    ["cloudplatform:index:getProject", {}],
    ["cloudplatform:index:getRegion", { name: "Luxembourg-2", hasK8s: true }],
  ]);
});

test("the cluster upgrade and the threshold get what the lookups and the config say", async () => {
  const outputs = await declare({ clusterName: "prod-cluster" });
  expect(inputsOf("K8sClusterUpgrade")).toMatchObject({ projectId: 1, regionId: 76, clusterName: "prod-cluster", version: "v1.31.2" });
  expect(inputsOf("StorageEvent")).toMatchObject({ name: "reaching_used_space", storageName: "media", bytes: 500 * 1024 ** 3 });
  expect(outputs).toEqual({ projectId: 1, regionId: 76, clusterVersion: "v1.31.2", spaceEventUuid: "space-threshold-uuid" });
});

test("both resources pass the checks pulumi preview runs", async () => {
  await declare();
  for (const r of resources) expect([r.type, checkResourceInputs(r.type, r.inputs)]).toEqual([r.type, []]);
});

test("a requests threshold with a byte limit is caught by the provider's check", async () => {
  await declare({ spaceEvent: "reaching_used_requests" });
  const event = resources.find((r) => r.type.endsWith(":StorageEvent"))!;
  expect(checkResourceInputs(event.type, event.inputs)).toEqual([
    expect.objectContaining({ property: "bytes", reason: expect.stringContaining("reaching_used_requests takes its limit in count") }),
  ]);
});

test("a lookup the mocks refuse fails with their message", async () => {
  await expect(settle(cloud.getRegionOutput({ name: "Nowhere-1" }))).rejects.toThrow("no region is named Nowhere-1");
});

test("a second account's provider: newResource gets it and its resources under the plugin's tokens, call its reference", async () => {
  resources.length = 0;
  calls.length = 0;
  // Nothing is contacted under mocks; the address only has to be one the provider accepts.
  const staging = new cloud.Provider("staging", { baseUrl: "http://127.0.0.1:9", apiKey: "unit-test-key" });
  const region = cloud.getRegionOutput({ name: "Luxembourg-2" }, { provider: staging });
  const space = new cloud.StorageEvent("staging-space", { name: "reaching_used_space", storageName: "media", bytes: 1024 }, { provider: staging });
  expect(await settle({ regionId: region.id, uuid: space.uuid })).toEqual({ regionId: 76, uuid: "staging-space-uuid" });

  const reference = "urn:pulumi:unit::testing-typescript::pulumi:providers:cloudplatform::staging::staging-id";
  expect(resources.map((r) => [r.type, r.provider ?? ""]).sort()).toEqual([
    ["cloudplatform:index:StorageEvent", reference],
    ["pulumi:providers:cloudplatform", ""],
  ]);
  expect(calls.map((c) => [c.token, c.provider])).toEqual([["cloudplatform:index:getRegion", reference]]);
  for (const r of resources) expect([r.type, checkResourceInputs(r.type, r.inputs)]).toEqual([r.type, []]);
});
