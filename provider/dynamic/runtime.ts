/**
 * What the dynamic-provider process loads as `pulumi-cloudplatform/internal/dynamic`: `__provider`
 * only names it, so no API key is serialized into the state (pulumi/pulumi#8265).
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

/** Once per provider process: a fresh {@link RunState}, and an exit once the engine is gone. */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  settings = resolveConnectionSettings((key) => req.config.get(key));
  client = undefined;
  run = new RunState();
  exitWhenEngineGone();
}

function secrets(): readonly string[] {
  return secretsOf(settings);
}

/** Never aborted: `@pulumi/pulumi`'s dynamic-provider host answers `Cancel` itself and never tells us. */
const NEVER_ABORTED = new AbortController().signal;

let stderrGuarded = false;

/**
 * Stream errors are ignored: an orphaned process's EPIPE would reach the host's uncaught-exception
 * handler, which logs to the same closed stderr and spins at full CPU forever.
 */
function writeProgress(line: string): void {
  if (!stderrGuarded) {
    process.stderr.on("error", () => undefined);
    stderrGuarded = true;
  }
  process.stderr.write(line);
}

/** Progress goes to stderr, shown as diagnostics: a dynamic provider has no engine log connection. */
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
 * What the `__provider` text hands the host (`sdk/nodejs/internal/dynamicRegistration.ts`).
 * `handlers` and `configure` stay exported: closures in stacks written by 0.1.0 call them.
 */
export const providers = Object.fromEntries(RESOURCE_TYPE_NAMES.map((name) => [name, { ...handlers[name], configure }])) as Record<
  ResourceTypeName,
  pulumi.dynamic.ResourceProvider
>;
