/**
 * What the dynamic-provider process loads, at call time, as `pulumi-cloudplatform/internal/dynamic`.
 * A resource's `__provider` only names this module, so no client, HTTP library or API key is
 * serialized into the state (a captured key stays plain text there; pulumi/pulumi#8265). It is
 * loaded from the program's `node_modules`, receives the stack config through `configure()`, and
 * keeps the key in memory only.
 */
import type * as pulumi from "@pulumi/pulumi";
import { lifecycleOf, RESOURCE_TYPE_NAMES, type ResourceTypeName } from "../adapters/resourceDefinitions";
import { secretsOf } from "../adapters/secrets";
import { redact, type CloudPlatformClient } from "../api";
import { exitWhenEngineGone } from "../engineWatch";
import type { LifecycleContext } from "../resources/lifecycle";
import { RunState } from "../resources/runState";
import { clientFromSettings, resolveConnectionSettings, type ConnectionSettings } from "../settings";
import { toDynamicHandlers, type DynamicHandlers } from "./adapter";

export type { ResourceTypeName } from "../adapters/resourceDefinitions";

let settings: ConnectionSettings = resolveConnectionSettings(() => undefined);
let client: CloudPlatformClient | undefined;
let run = new RunState();

/**
 * Receives the stack config once per provider process (engine `Configure`), starts a fresh
 * {@link RunState}, and makes the process exit once the engine that started it is gone.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  settings = resolveConnectionSettings((key) => req.config.get(key));
  client = undefined;
  run = new RunState();
  exitWhenEngineGone();
}

function secrets(): readonly string[] {
  return secretsOf(settings);
}

/**
 * The signal of every operation of this process, never aborted: `@pulumi/pulumi`'s
 * dynamic-provider host answers the engine's `Cancel` itself and never tells the provider, so
 * on this path an operation runs until it ends (a second Ctrl-C ends `pulumi` instead).
 */
const NEVER_ABORTED = new AbortController().signal;

let stderrGuarded = false;

/**
 * Writes a progress line to stderr. If the engine is gone (a killed `pulumi up` leaves this
 * process orphaned with a closed pipe), the write fails with EPIPE; unhandled, that error
 * reaches the dynamic-provider host's uncaught-exception handler, which logs it to the same
 * closed stderr, and the process spins at full CPU forever. So stream errors are ignored.
 */
function writeProgress(line: string): void {
  if (!stderrGuarded) {
    process.stderr.on("error", () => undefined);
    stderrGuarded = true;
  }
  process.stderr.write(line);
}

/**
 * Progress reaches the person running `pulumi up` through the provider's stderr, which the
 * engine shows as diagnostics of the run (a dynamic provider has no engine log connection).
 */
function contextFor(typeName: string): () => LifecycleContext {
  return () => ({
    client: () => (client ??= clientFromSettings(settings)),
    log: (message, options) => writeProgress(redact(`[cloudplatform] ${typeName}: ${options?.warning ? "warning: " : ""}${message}\n`, secrets())),
    run,
    signal: NEVER_ABORTED,
  });
}

/** The handlers of every resource type, by type name (the name the SDK class registers). */
export const handlers = Object.fromEntries(
  RESOURCE_TYPE_NAMES.map((name) => [name, toDynamicHandlers(lifecycleOf(name), contextFor(name), secrets, () => settings.apiKeyFrom)]),
) as Record<ResourceTypeName, DynamicHandlers>;

/**
 * The provider object of each type, as the one-line `__provider` text the SDK registers hands
 * it to the dynamic-provider host (`sdk/nodejs/internal/dynamicRegistration.ts`). `handlers`
 * and `configure` stay exported as they are: the serialized closures in the state of stacks
 * written by 0.1.0 call them.
 */
export const providers = Object.fromEntries(RESOURCE_TYPE_NAMES.map((name) => [name, { ...handlers[name], configure }])) as Record<
  ResourceTypeName,
  pulumi.dynamic.ResourceProvider
>;
