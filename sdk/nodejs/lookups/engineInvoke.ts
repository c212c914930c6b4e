/**
 * When and how a lookup goes through the Pulumi engine's invoke instead of running in the
 * program process (internal; not re-exported).
 *
 * Why: by default a lookup runs here with the stack's `cloudplatform:*` config, which needs no
 * plugin. Two things need the engine, as every generated SDK's lookups do:
 * - Pulumi's mocks (`pulumi.runtime.setMocks`): unit tests expect every lookup to reach the
 *   mocks' `call` with the function's token and arguments, and nothing to reach the network.
 * - invoke options that pick a provider (`provider`, a `parent` holding one, `version`,
 *   `pluginDownloadURL`): only the engine can hand the call to that provider, the
 *   `cloudplatform` plugin. An option no lookup can honour is refused, never dropped.
 */
import * as pulumi from "@pulumi/pulumi";
import { CloudPlatformError } from "../../../provider/api/errors";
import { LookupOptionError } from "../../../provider/lookups/errors";
import { normalizeLookupArgs, type LookupDefinition } from "../../../provider/lookups/runtime";
import { providerProblem } from "../internal/providerOption";
import { resultFromEngine } from "./engineResult";
import { keepMocksMessages } from "./mocksMessage";

/** The package whose plugin serves the lookups as functions. */
export const LOOKUP_PACKAGE = "cloudplatform";

/** The function token of a lookup, as in the plugin's schema (`cloudplatform:index:getProject`). */
export function lookupToken(name: string): string {
  return `${LOOKUP_PACKAGE}:index:${name}`;
}

/** The options a lookup honours (`async` has no effect in Pulumi 3 and is accepted as such). */
const OPTIONS = ["provider", "parent", "version", "pluginDownloadURL", "async"] as const;

/** What to do instead of an option a lookup does not take. */
const INSTEAD = "lookups take provider, parent, version and pluginDownloadURL (to wait for a resource, pass one of its outputs as an argument of the Output form)";

/**
 * Whether this program runs under Pulumi's mocks. The mocks install a `MockMonitor` as the
 * resource monitor; the class name is checked too, for a second copy of `@pulumi/pulumi` in
 * the program (its class is another object).
 */
export function runsUnderMocks(): boolean {
  let monitor: unknown;
  try {
    monitor = pulumi.runtime.getMonitor();
  } catch {
    return false;
  }
  if (monitor === null || typeof monitor !== "object") return false;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks") as { MockMonitor?: new (...args: never[]) => unknown };
    if (MockMonitor && monitor instanceof MockMonitor) return true;
  } catch {
    // an SDK without that module has no mocks of this kind
  }
  return monitor.constructor?.name === "MockMonitor";
}

/** Checks `opts.provider`; throws LookupOptionError unless it is a provider of our package. */
function checkProvider(lookup: string, provider: unknown): void {
  const problem = providerProblem(provider);
  if (problem !== undefined) throw new LookupOptionError(lookup, "provider", problem);
}

/**
 * Checks a lookup's `opts` and says whether they need the engine: an explicit provider of
 * package `cloudplatform`, a parent that holds one, a `version` or a `pluginDownloadURL`.
 * A parent without such a provider changes nothing (a generated SDK's invoke then goes to the
 * default provider, which reads the same config as the lookup here). Throws LookupOptionError,
 * naming what to do instead, for an option no lookup can honour.
 */
export function optionsNeedEngine(lookup: string, opts: unknown): boolean {
  if (opts === undefined || opts === null) return false;
  if (typeof opts !== "object") throw new LookupOptionError(lookup, "", `must be an object of invoke options; ${INSTEAD}`);
  const o = opts as Record<string, unknown>;
  for (const [name, value] of Object.entries(o)) {
    if (value !== undefined && !(OPTIONS as readonly string[]).includes(name)) throw new LookupOptionError(lookup, name, `is not an option of a lookup; ${INSTEAD}`);
  }
  let engine = false;
  if (o.provider !== undefined) {
    checkProvider(lookup, o.provider);
    engine = true;
  }
  if (o.parent !== undefined) {
    if (!pulumi.Resource.isInstance(o.parent)) throw new LookupOptionError(lookup, "parent", "is not a Pulumi resource; pass a resource (or leave parent out)");
    if (o.parent.getProvider(lookupToken(lookup)) !== undefined) engine = true;
  }
  for (const name of ["version", "pluginDownloadURL"] as const) {
    const value = o[name];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "") throw new LookupOptionError(lookup, name, `must be a non-empty string; got ${JSON.stringify(value)}`);
    engine = true;
  }
  return engine;
}

/**
 * Runs a lookup through the engine's invoke (the `cloudplatform` plugin, or the mocks' `call`):
 * its arguments are checked first (a bad one fails before the call, with the message of the
 * in-process path), then sent as given, under the schema's names, as a generated SDK sends
 * them (the provider applies the defaults); the answer comes back in the lookup's result type.
 */
export async function invokeThroughEngine<A, N, R>(def: LookupDefinition<A, N, R>, args: A | undefined, opts: pulumi.InvokeOptions | undefined): Promise<R> {
  normalizeLookupArgs(def, args);
  const token = lookupToken(def.name);
  const mocks = runsUnderMocks();
  if (mocks) keepMocksMessages(pulumi.runtime.getMonitor(), `${LOOKUP_PACKAGE}:`);
  let answer: unknown;
  try {
    answer = await pulumi.runtime.invoke(token, (args ?? {}) as pulumi.Inputs, opts ?? {});
  } catch (err) {
    if (!mocks) throw err;
    const message = err instanceof Error && err.message !== "" ? err.message : "(no message)";
    throw new CloudPlatformError(`${def.name}: the invoke of ${token} under Pulumi's mocks failed: ${message}`, { cause: err });
  }
  return resultFromEngine(token, answer) as R;
}
