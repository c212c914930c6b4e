/**
 * How the SDK runs a lookup inside a Pulumi program (internal; not re-exported).
 *
 * Why here and not in a dynamic provider: dynamic providers cannot serve invokes, so a lookup is
 * a plain async function in the program process. It reads `cloudplatform:apiKey` and
 * `cloudplatform:baseUrl` with `pulumi.runtime.getConfig` (config set with `--secret` arrives
 * decrypted, and no "secret read as plain" warning is printed because nothing is wrapped), falls
 * back to CLOUDPLATFORM_API_KEY / CLOUDPLATFORM_BASE_URL, and never puts the key in a result.
 * `getXOutput` first checks every argument whose value is already known, synchronously (a bad
 * one throws at the call, as fast as the Promise form fails), then lifts the arguments with
 * `pulumi.output(args).apply(...)`, so dependencies and secretness of the inputs carry over and
 * nothing is requested while an input is unknown (preview).
 */
import * as pulumi from "@pulumi/pulumi";
import { cacheForScope } from "../../../provider/lookups/cache";
import { precheckLookup, runLookup, type LookupDefinition, type LookupEnvironment } from "../../../provider/lookups/runtime";
import { resolveConnectionSettings } from "../../../provider/settings";

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
    clientOptions: {
      // Waits (a rate limit, a 503) show up in `pulumi up` output instead of a silent pause.
      onRetry: (e) => {
        void pulumi.log.info(`cloudplatform: ${e.method} ${e.path} failed (${e.reason}); retrying in ${Math.ceil(e.delayMs / 1000)} s (attempt ${e.attempt + 1})`);
      },
    },
  };
}

/**
 * Run a lookup in the program. `opts` is accepted for the shape of generated SDKs; lookups run
 * in the program process, so `provider`, `version` and `pluginDownloadURL` do not apply.
 */
export function invokeLookup<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined, _opts?: pulumi.InvokeOptions): Promise<R> {
  return runLookup(def, args, programEnvironment());
}

/** Whether a `pulumi.Input` has no value yet: an Output or a Promise (any thenable). */
function isPendingInput(value: unknown): boolean {
  if (pulumi.Output.isInstance(value)) return true;
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * The `getXOutput` form: check the arguments known now (throws LookupArgumentError at once),
 * lift the inputs, run once they are known.
 */
export function invokeLookupOutput<A, N, R>(
  def: LookupDefinition<A, N, R>,
  args: LookupOutputArgs<A> | undefined,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<R> {
  precheckLookup(def, args, isPendingInput);
  return pulumi.output(args ?? {}).apply((a) => invokeLookup(def, a as unknown as A, opts)) as unknown as pulumi.Output<R>;
}
