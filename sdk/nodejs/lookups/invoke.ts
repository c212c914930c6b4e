/**
 * How the SDK runs a lookup inside a Pulumi program (internal; not re-exported).
 *
 * Why in the program process by default: the TypeScript SDK needs no plugin (its resources are
 * dynamic resources, and a dynamic provider cannot serve invokes), so a lookup is a plain async
 * function here, with the settings read through `pulumi.runtime.getConfig` (config set with
 * `--secret` arrives decrypted, and no "secret read as plain" warning is printed because nothing
 * is wrapped). Under Pulumi's mocks, and with options that pick a provider, it goes through the
 * engine's invoke instead, as a generated SDK's lookup does (`engineInvoke.ts`). `getXOutput`
 * lifts its arguments with `pulumi.output(args).apply(...)`, so dependencies and secretness
 * carry over and nothing is requested while an input is unknown (preview).
 */
import * as pulumi from "@pulumi/pulumi";
import { cacheForScope } from "../../../provider/lookups/cache";
import { precheckLookup, runLookup, type LookupDefinition, type LookupEnvironment } from "../../../provider/lookups/runtime";
import { resolveConnectionSettings } from "../../../provider/settings";
import { invokeThroughEngine, optionsNeedEngine, runsUnderMocks } from "./engineInvoke";

/**
 * Every field of `T` as a `pulumi.Input`, list elements included: the argument type of a
 * `getXOutput` function.
 */
export type LookupOutputArgs<T> = {
  [K in keyof T]: T[K] extends readonly (infer E)[] | undefined ? pulumi.Input<readonly pulumi.Input<E>[]> : pulumi.Input<T[K]>;
};

/**
 * The identity of the current program run: the Pulumi SDK's per-run store (internal to the SDK,
 * read defensively). Inline Automation API programs run several times in one process, and each
 * run must start with an empty lookup cache.
 */
function runScope(): object | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const state = require("@pulumi/pulumi/runtime/state") as { getStore?: () => unknown };
    const store = state.getStore?.();
    return typeof store === "object" && store !== null ? store : undefined;
  } catch {
    return undefined;
  }
}

/** The environment of a lookup in the current program run. */
export function programEnvironment(): LookupEnvironment {
  return {
    settings: resolveConnectionSettings((key) => pulumi.runtime.getConfig(key)),
    cache: cacheForScope(runScope()),
    progress: (message) => void pulumi.log.info(`cloudplatform: ${message}`),
  };
}

/**
 * Run a lookup: in the program process, or through the engine's invoke under Pulumi's mocks and
 * when `opts` pick a provider. An option no lookup can honour rejects with LookupOptionError.
 */
export async function invokeLookup<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined, opts?: pulumi.InvokeOptions): Promise<R> {
  if (optionsNeedEngine(def.name, opts) || runsUnderMocks()) return invokeThroughEngine(def, args, opts);
  return runLookup(def, args, programEnvironment());
}

/** Whether a `pulumi.Input` has no value yet: an Output or a Promise (any thenable). */
function isPendingInput(value: unknown): boolean {
  if (pulumi.Output.isInstance(value)) return true;
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Marks the failure of an Output's own promises as seen. Why: Pulumi rejects an Output's
 * `isKnown` and `isSecret` promises with the value's error, and in a test under mocks nothing
 * else reads them, so a failed lookup nobody reads would reach Node as an unhandled rejection
 * and end the test process (mocha, plain node). Whoever reads the value still gets the error.
 * Only under mocks: in a real run Pulumi's own handler fails the program on it, as it should.
 */
function observeOwnFailures(output: pulumi.Output<unknown>): void {
  const own = output as unknown as { isKnown?: Promise<unknown>; isSecret?: Promise<unknown> };
  for (const p of [own.isKnown, own.isSecret]) void p?.catch(() => undefined);
}

/**
 * The `getXOutput` form: check the arguments known now and the options (throws
 * LookupArgumentError or LookupOptionError at once), lift the inputs, run once they are known.
 */
export function invokeLookupOutput<A, N, R>(
  def: LookupDefinition<A, N, R>,
  args: LookupOutputArgs<A> | undefined,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<R> {
  precheckLookup(def, args, isPendingInput);
  optionsNeedEngine(def.name, opts);
  const output = pulumi.output(args ?? {}).apply((a) => invokeLookup(def, a as unknown as A, opts)) as unknown as pulumi.Output<R>;
  if (runsUnderMocks()) observeOwnFailures(output);
  return output;
}
