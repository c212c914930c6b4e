/**
 * A program with an explicit `cloud.Provider` under Pulumi's mocks, as the testing guide shows
 * it: `newResource` receives the provider (`pulumi:providers:cloudplatform`, its settings, the
 * key a secret) and the resources given it under the plugin's tokens (`cloudplatform:index:*`),
 * `call` receives the provider's reference (`<urn>::<id>`) for a lookup given it, and the guide's
 * loop `checkResourceInputs(r.type, r.inputs)` holds for every registration.
 */
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "../../../sdk/nodejs";
import { checkResourceInputs, settle } from "../../../sdk/nodejs/testing";

const resources: pulumi.runtime.MockResourceArgs[] = [];
const calls: pulumi.runtime.MockCallArgs[] = [];

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      resources.push(args);
      return { id: `${args.name}-id`, state: { ...args.inputs, ...(args.type.endsWith(":StorageEvent") ? { uuid: `${args.name}-uuid` } : {}) } };
    },
    call: (args) => {
      calls.push(args);
      return { id: 76, displayName: "Luxembourg-2" };
    },
  },
  "provider-mocks",
  "unit",
  false,
);

delete process.env.CLOUDPLATFORM_BASE_URL;
delete process.env.CLOUDPLATFORM_API_KEY;

/** Two accounts: the stack's (no provider) and staging's (a provider). */
function declareStack() {
  const staging = new cloud.Provider("staging", { baseUrl: "http://127.0.0.1:9", apiKey: "staging-key" });
  const region = cloud.getRegionOutput({ name: "Luxembourg-2" }, { provider: staging });
  const stagingSpace = new cloud.StorageEvent("staging-space", { name: "reaching_used_space", storageName: "media", bytes: 10 }, { provider: staging });
  const space = new cloud.StorageEvent("space", { name: "reaching_used_space", storageName: "media", bytes: 10 });
  return { regionId: region.id, stagingUuid: stagingSpace.uuid, uuid: space.uuid };
}

test("newResource receives the provider and the resources given it under the plugin's tokens; call the provider's reference", async () => {
  expect(await settle(declareStack())).toEqual({ regionId: 76, stagingUuid: "staging-space-uuid", uuid: "space-uuid" });
  const byName = Object.fromEntries(resources.map((r) => [r.name, r]));
  expect(Object.fromEntries(resources.map((r) => [r.name, r.type]))).toEqual({
    staging: "pulumi:providers:cloudplatform",
    "staging-space": "cloudplatform:index:StorageEvent",
    space: "pulumi-nodejs:dynamic/cloudplatform:StorageEvent",
  });
  // The key is a secret: the mocks see Pulumi's secret wrapper around it.
  expect(byName["staging"]?.inputs).toMatchObject({
    baseUrl: "http://127.0.0.1:9",
    apiKey: { [pulumi.runtime.specialSigKey]: pulumi.runtime.specialSecretSig, value: "staging-key" },
  });
  expect(byName["staging-space"]?.provider).toBe("urn:pulumi:unit::provider-mocks::pulumi:providers:cloudplatform::staging::staging-id");
  expect(calls.map((c) => [c.token, c.provider])).toEqual([
    ["cloudplatform:index:getRegion", "urn:pulumi:unit::provider-mocks::pulumi:providers:cloudplatform::staging::staging-id"],
  ]);
  for (const r of resources) expect([r.type, checkResourceInputs(r.type, r.inputs)]).toEqual([r.type, []]);
});
