#!/usr/bin/env node
/**
 * Entry point of the `pulumi-resource-cloudplatform` plugin process.
 *
 * Why so little: the engine starts the plugin with its own address as the first non-flag
 * argument and reads the gRPC port from the plugin's first line of stdout; everything else is
 * in `server.ts`. The process exits once that engine is gone (a killed `pulumi up` must not
 * leave an upgrade polling for nobody).
 */
import { messageOf } from "../caughtErrors";
import { engineAddressFrom, exitWhenEngineGone } from "../engineWatch";
import { serve } from "./server";

async function main(args: readonly string[]): Promise<void> {
  // The engine's `host:port`, wherever flags such as `--tracing <endpoint>` put it.
  const engineAddress = engineAddressFrom(args);
  const { port } = await serve({ engineAddress });
  process.stdout.write(`${port}\n`);
  if (engineAddress) exitWhenEngineGone([engineAddress]);
}

/**
 * Serves the plugin for the engine whose arguments are `args`; a failure to start ends the
 * process with the reason on stderr. Used by the bin and by the source-based plugin launch.
 */
export function runPlugin(args: readonly string[]): void {
  main(args).catch((err: unknown) => {
    process.stderr.write(`pulumi-resource-cloudplatform: ${messageOf(err)}\n`);
    process.exit(1);
  });
}

if (require.main === module) runPlugin(process.argv.slice(2));
