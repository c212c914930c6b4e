/**
 * `checkResourceInputs` of `pulumi-cloudplatform/testing` gives a unit test under mocks the
 * failures `pulumi preview` reports before asking the API: the same as each lifecycle's `check`
 * for the same inputs, for the type tokens of both paths, nothing for valid inputs, and `[]`
 * for every other type a mocks' `newResource` receives (the provider, another package's
 * resources), so a test can run all of them through it.
 */
import { createClient } from "../../../provider/api";
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { lifecycleOf, type ResourceTypeName } from "../../../provider/adapters/resourceDefinitions";
import { checkResourceInputs } from "../../../sdk/nodejs/testing";
import { contextOf } from "../resources/context";

/** What the lifecycle's own `check` (preview's) reports; no request is made for these inputs. */
async function previewFailures(type: ResourceTypeName, inputs: Record<string, unknown>) {
  // Nothing listens there: a check that asked the API would fail instead of answering.
  const ctx = contextOf(createClient({ baseUrl: "http://127.0.0.1:9", apiKey: "unused", retry: { maxAttempts: 1 } }));
  return (await lifecycleOf(type).check(ctx, inputs, unknownInputs(inputs))).failures;
}

// [case, type name, inputs]
const INVALID: [string, ResourceTypeName, Record<string, unknown>][] = [
  ["a requests event with bytes", "StorageEvent", { name: "reaching_used_requests", storageName: "media", bytes: 10 }],
  ["an unknown event name", "StorageEvent", { name: "reaching_used_disk", storageName: "media", bytes: 10 }],
  ["an event scoped to no storage", "StorageEvent", { name: "reaching_used_space", bytes: 10 }],
  ["a malformed version", "K8sClusterUpgrade", { projectId: 1, regionId: 76, clusterName: "demo-cluster", version: "1.31" }],
  ["a project id of zero", "K8sClusterUpgrade", { projectId: 0, regionId: 76, clusterName: "demo-cluster", version: "v1.31.2" }],
];

describe.each(["pulumi-nodejs:dynamic/cloudplatform", "cloudplatform:index"])("with type tokens %s:<Type>", (prefix) => {
  test.each(INVALID)("%s: the failures preview reports", async (_case, type, inputs) => {
    const failures = checkResourceInputs(`${prefix}:${type}`, inputs);
    expect(failures?.length).toBeGreaterThan(0);
    expect(failures).toEqual(await previewFailures(type, inputs));
  });
});

test("the message is preview's, naming the field and what to set instead", () => {
  expect(checkResourceInputs("pulumi-nodejs:dynamic/cloudplatform:StorageEvent", { name: "reaching_used_requests", storageName: "media", bytes: 10, __provider: "x" })).toEqual([
    {
      property: "bytes",
      reason:
        "bytes goes with reaching_used_space and reaching_used_traffic only; reaching_used_requests takes its limit in count (a number of files or requests), so set count instead of bytes",
    },
  ]);
});

test("valid inputs have no failures", () => {
  expect(checkResourceInputs("cloudplatform:index:StorageEvent", { name: "reaching_used_space", storageName: "media", bytes: 10 })).toEqual([]);
  expect(checkResourceInputs("cloudplatform:index:K8sClusterUpgrade", { projectId: 1, regionId: 76, clusterName: "demo-cluster", version: "v1.31.2" })).toEqual([]);
});

test.each(["pulumi:providers:cloudplatform", "aws:s3/bucket:Bucket", "cloudplatform:index:Provider", "pulumi-nodejs:dynamic/other:StorageEvent", "pulumi:providers:aws"])(
  "%s is not checked here: [], whatever its inputs",
  (type) => {
    expect(checkResourceInputs(type, { name: "reaching_used_requests", bytes: 10, apiKey: "[secret]" })).toEqual([]);
  },
);
