/**
 * `settle` of `pulumi-cloudplatform/testing` under Pulumi's mocks: it resolves with an Output's
 * value (nested Outputs too, as a program's stack outputs are) and rejects with the reason when
 * the Output failed, where a helper built on `apply` never settles; a failure it read is no
 * unhandled rejection (jest fails the running test on one).
 */
import * as pulumi from "@pulumi/pulumi";
import * as cp from "../../../sdk/nodejs";
import { settle } from "../../../sdk/nodejs/testing";

pulumi.runtime.setMocks(
  {
    newResource: (args) => ({ id: `${args.name}-id`, state: { ...args.inputs, uuid: `${args.name}-uuid` } }),
    call: (args) => {
      if (args.inputs["name"] === "Nowhere-1") throw new Error("no region is named Nowhere-1");
      return { id: 76, displayName: args.inputs["name"] };
    },
  },
  "settle-project",
  "settle-stack",
  false,
);

delete process.env.CLOUDPLATFORM_BASE_URL;
delete process.env.CLOUDPLATFORM_API_KEY;

test("resolves with an Output's value, Outputs nested in an object included", async () => {
  const region = cp.getRegionOutput({ name: "Luxembourg-2" });
  const event = new cp.StorageEvent("space", { name: "reaching_used_space", storageName: "media", bytes: 10 });
  expect(await settle(region.id)).toBe(76);
  expect(await settle({ regionId: region.id, uuid: event.uuid, fixed: "x" })).toEqual({ regionId: 76, uuid: "space-uuid", fixed: "x" });
});

test("rejects with the mocks' message when a lookup's call threw, where apply never runs", async () => {
  const failed = cp.getRegionOutput({ name: "Nowhere-1" });
  let applied = false;
  const derived = failed.apply((region) => {
    applied = true;
    return region.id;
  });
  await expect(settle(failed)).rejects.toThrow("no region is named Nowhere-1");
  await expect(settle(derived)).rejects.toThrow("no region is named Nowhere-1");
  expect(applied).toBe(false);
});

test("rejects a program's outputs when one of them failed", async () => {
  const outputs = { ok: cp.getRegionOutput({ name: "Luxembourg-2" }).id, broken: cp.getRegionOutput({ name: "Nowhere-1" }).id };
  await expect(settle(pulumi.output(outputs))).rejects.toThrow(/^getRegion: .*no region is named Nowhere-1$/);
});

test("rejects with the reason of an Output that failed anywhere else, as a Promise does", async () => {
  await expect(settle(pulumi.output(Promise.reject(new Error("computed badly"))))).rejects.toThrow("computed badly");
  await expect(settle(Promise.resolve(3))).resolves.toBe(3);
});
