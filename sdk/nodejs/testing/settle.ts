/**
 * `settle(output)`: an Output's value as a Promise that rejects when the Output failed.
 *
 * Why: a test under Pulumi's mocks waits for what the program computed, and the usual helper,
 * `new Promise((resolve) => output.apply(resolve))`, never settles when the Output failed (a
 * lookup whose mocked `call` threw, a bad argument that arrived late): `apply` runs only on a
 * value, so the test runs into its timeout instead of failing with the reason. Pulumi gives no
 * public way to read an Output's failure; the Output's own promise, which the SDK uses inside,
 * holds it.
 */
import * as pulumi from "@pulumi/pulumi";
import { CloudPlatformError } from "../../../provider/api/errors";

/** The parts of an Output `settle` reads; `promise` is the SDK's own, not in its declarations. */
interface OutputInternals<T> {
  promise?: (withUnknowns?: boolean) => Promise<T>;
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
  allResources?: () => Promise<unknown>;
}

const ignore = (): undefined => undefined;

/**
 * Resolves with the value of `input` (an Output, a Promise or a plain value, with Outputs
 * nested in it, as `pulumi.output` takes) once every part of it is known, and rejects with the
 * error of the first part that failed. For tests:
 *
 * ```ts
 * expect(await settle(pulumi.output(declareStack()))).toMatchObject({ clusterVersion: "v1.31.2" });
 * await expect(settle(cloud.getRegionOutput({ name: "Nowhere" }))).rejects.toThrow("no such region");
 * ```
 *
 * A value that is unknown (mocks set up with `preview: true`, an id not yet assigned) resolves
 * as `undefined`, as Pulumi's own promise gives it. Reading the Output's failure here also
 * counts as handling it: it is no unhandled rejection.
 */
export function settle<T>(input: pulumi.Input<T>): Promise<pulumi.Unwrap<T>> {
  const output = pulumi.output(input) as unknown as OutputInternals<pulumi.Unwrap<T>>;
  if (typeof output.promise !== "function") {
    return Promise.reject(new CloudPlatformError("settle: this @pulumi/pulumi's Output has no promise() to read its value or failure from; use @pulumi/pulumi 3"));
  }
  Promise.resolve(output.isKnown).catch(ignore);
  Promise.resolve(output.isSecret).catch(ignore);
  if (typeof output.allResources === "function") output.allResources().catch(ignore);
  return output.promise(false);
}
