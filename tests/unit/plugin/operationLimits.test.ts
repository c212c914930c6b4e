/**
 * The plugin's operation limits (provider/plugin/operationLimits.ts) on their own: a
 * `customTimeouts` deadline and the bounds of the timer that carries it.
 */
import { CustomTimeoutError, OperationLimits } from "../../../provider/plugin/operationLimits";

/** Work that ends with `value` after `ms`, or at once with the abort reason when `signal` aborts. */
const settleAfter = <T>(ms: number, value: T, signal: AbortSignal) =>
  new Promise<T>((resolve, reject) => {
    setTimeout(() => resolve(value), ms);
    signal.addEventListener("abort", () => reject(signal.reason));
  });

describe("OperationLimits.run", () => {
  test("a deadline that runs out stops the operation with an error naming the customTimeouts field", async () => {
    const limits = new OperationLimits();
    const err = await limits.run({ operation: "create", seconds: 0.05 }, (signal) => settleAfter(5_000, "never", signal)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CustomTimeoutError);
    expect((err as Error).message).toMatch(/^customTimeouts\.create \(/);
  });

  test("a customTimeouts longer than a timer can hold (about 25 days) does not fire at once", async () => {
    const limits = new OperationLimits();
    // 1000 hours: setTimeout would take it for 1 ms and end the operation at once.
    await expect(limits.run({ operation: "update", seconds: 3_600_000 }, (signal) => settleAfter(50, "done", signal))).resolves.toBe("done");
  });
});
