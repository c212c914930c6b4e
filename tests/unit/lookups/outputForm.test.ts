/**
 * The Output form of a lookup checks every argument known at the call synchronously, before any
 * Output is built: a bad one throws at once, with the message the Promise form rejects with.
 * Arguments that are Outputs or Promises are checked when their values arrive (the value's
 * Output rejects with the same message), and no request is sent for a bad argument either way.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  getDelegationStatus,
  getDelegationStatusOutput,
  getInstances,
  getInstancesOutput,
  getK8sClusters,
  getK8sClustersOutput,
  getRegion,
  getRegionOutput,
  getResellerTotals,
  getResellerTotalsOutput,
  getTasks,
  getTasksOutput,
  LookupArgumentError,
} from "../../../sdk/nodejs";
import { simulatorViaEnvironment } from "./helpers";

const sim = simulatorViaEnvironment();
beforeEach(() => sim().reset());

/**
 * The value of an Output outside an engine, through the SDK's own internal accessors. A failed
 * apply rejects every derived promise of the Output (value, known, secret, resources); they are
 * all observed here so none reaches the test runner as an unhandled rejection.
 */
function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  const impl = o as unknown as { promise(): Promise<T>; isKnown: Promise<boolean>; isSecret: Promise<boolean>; allResources(): Promise<unknown> };
  for (const p of [impl.isKnown, impl.isSecret, impl.allResources()]) p.catch(() => undefined);
  return impl.promise();
}

/** What a call threw synchronously, or undefined when it returned. */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
    return undefined;
  } catch (err) {
    return err;
  }
}

const TOTALS = { metric: "requests" as const, clientIds: [101, 102], from: "2026-09-01", to: "2026-09-08" };

// [title, Promise form, Output form with the same plain arguments]
const plainCases: [string, () => Promise<unknown>, () => unknown][] = [
  ["getInstances pageSize 5000", () => getInstances({ projectId: 1, regionId: 76, pageSize: 5000 }), () => getInstancesOutput({ projectId: 1, regionId: 76, pageSize: 5000 })],
  ["getRegion with a misspelt argument", () => getRegion({ nmae: "Luxembourg-2" } as never), () => getRegionOutput({ nmae: "Luxembourg-2" } as never)],
  ["getResellerTotals end before start", () => getResellerTotals({ ...TOTALS, from: "2026-09-08", to: "2026-09-01" }), () => getResellerTotalsOutput({ ...TOTALS, from: "2026-09-08", to: "2026-09-01" })],
  ["getDelegationStatus with a slash", () => getDelegationStatus({ domain: "a/b.com" }), () => getDelegationStatusOutput({ domain: "a/b.com" })],
  ["getTasks bad state in a list", () => getTasks({ state: ["RUNNING", "DONE" as never] }), () => getTasksOutput({ state: ["RUNNING", "DONE" as never] })],
  ["getK8sClusters missing projectId", () => getK8sClusters({ regionId: 76 } as never), () => getK8sClustersOutput({ regionId: 76 } as never)],
];

describe("Output-form lookups with plain arguments", () => {
  it.each(plainCases)("%s: the Output form throws at the call, with the Promise form's message", async (_title, promiseForm, outputForm) => {
    const rejected = await promiseForm().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(rejected).toBeInstanceOf(LookupArgumentError);
    const thrown = thrownBy(outputForm);
    expect(thrown).toBeInstanceOf(LookupArgumentError);
    expect((thrown as Error).message).toBe((rejected as Error).message);
    expect(sim().requests()).toEqual([]);
  });
});

describe("Output-form lookups with pending arguments", () => {
  it("still throws at the call for a bad argument that is known, whatever else is pending", () => {
    const pendingId = pulumi.output(Promise.resolve(1));
    expect(thrownBy(() => getInstancesOutput({ projectId: pendingId, regionId: Promise.resolve(76), pageSize: 5000 }))).toMatchObject({
      message: "getInstances: pageSize must be an integer from 1 to 1000; got 5000",
    });
    // A misspelt name is wrong whatever its value.
    expect(thrownBy(() => getRegionOutput({ nmae: pulumi.output("Luxembourg-2") } as never))).toMatchObject({
      message: "getRegion: nmae is not an argument of getRegion; allowed arguments: name, id, hasK8s, hasKvm, hasDbaas, hasBaremetal, accessLevel",
    });
    // A cross-argument check whose other half is known.
    expect(thrownBy(() => getResellerTotalsOutput({ ...TOTALS, metric: "bogus" as never, from: pulumi.output("2026-09-01") }))).toBeInstanceOf(
      LookupArgumentError,
    );
    expect(sim().requests()).toEqual([]);
  });

  it("checks a pending argument when it arrives: the Output rejects with the Promise form's message", async () => {
    const rejected = await getInstances({ projectId: 0, regionId: 76 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const out = getInstancesOutput({ projectId: pulumi.output(0), regionId: 76 });
    const err = await valueOf(out).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LookupArgumentError);
    expect((err as Error).message).toBe((rejected as Error).message);
    // A list with one pending element is pending as a whole; its bad element is found later.
    const list = getTasksOutput({ state: [pulumi.output("DONE" as never), "RUNNING"] });
    await expect(valueOf(list)).rejects.toThrow('getTasks: state must be one of NEW, RUNNING, FINISHED, ERROR (or a list of them); got "DONE"');
    // Pending dates leave the end-after-start check to the full check.
    const totals = getResellerTotalsOutput({ ...TOTALS, from: pulumi.output("2026-09-08"), to: "2026-09-01" });
    await expect(valueOf(totals)).rejects.toThrow("getResellerTotals: to must be after from");
    expect(sim().requests()).toEqual([]);
  });

  it("runs the lookup once pending arguments arrive and are valid", async () => {
    const out = getK8sClustersOutput({ projectId: pulumi.output(1), regionId: Promise.resolve(76), name: "legacy" });
    expect((await valueOf(out)).names).toEqual(["legacy-cluster"]);
  });
});
