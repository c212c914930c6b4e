/**
 * Serving the package as a source-based plugin.
 *
 * Why here: `PulumiPlugin.yaml` (`runtime: nodejs`) at the package root makes the Node.js
 * language host run `@pulumi/pulumi/cmd/run-plugin <package dir>`, which loads the package's
 * `main` (this SDK) with the engine's arguments in `process.argv`. Only in that process does
 * loading the SDK start the `cloudplatform` plugin; a Pulumi program that imports the SDK is
 * started by `cmd/run` and is never affected. The plugin is required lazily so programs do not
 * load its gRPC server.
 */

/** Whether the process entry point is `@pulumi/pulumi/cmd/run-plugin`. */
export function launchedByRunPlugin(entry: string | undefined = require.main?.filename): boolean {
  return entry !== undefined && /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]run-plugin[\\/]index\.js$/.test(entry);
}

/** Starts the plugin when this process is a source-based plugin launch; otherwise does nothing. */
export function serveWhenRunAsPlugin(): void {
  if (!launchedByRunPlugin()) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const plugin = require("../../../provider/plugin/main") as typeof import("../../../provider/plugin/main");
  plugin.runPlugin(process.argv.slice(2));
}
