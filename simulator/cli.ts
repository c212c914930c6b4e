#!/usr/bin/env node
/**
 * `cloudplatform-simulator`: runs the simulator from the command line so users can point
 * `pulumi up` at it offline.
 *
 * Usage: cloudplatform-simulator [--port N] [--api-key KEY] [--read-only-api-key KEY]
 *        [--seed FILE] [--fault-seed N] [--time-scale N] [--state-file FILE]
 *        [--dialect regular|public-api] [--reseller-paths both|public|spec]
 *        [--ready-file FILE] [--quiet]
 *
 * Prints `cloudplatform-simulator listening on <url>` and `api key: <key>` (CONTRACT.md), then
 * logs one line per request to stderr unless `--quiet`. With `--ready-file`, also writes the URL
 * and keys as JSON to that file once it listens (whole or not at all), for a test suite or a
 * script that starts it in the background. Stops cleanly on SIGINT/SIGTERM.
 */
import * as fs from "fs";
import { DIALECTS, parseDialect } from "./dialect";
import { startSimulator, SimulatorOptions } from "./index";
import { parseResellerPathsServed, RESELLER_PATHS_SERVED } from "./resellerPaths";

/** Parsed command line. */
export interface CliArgs {
  options: SimulatorOptions;
  help: boolean;
  /** Where to write `{url, port, apiKey, readOnlyApiKey, pid}` once listening (`--ready-file`). */
  readyFile?: string;
}

/** The `--help` text (exported so a test can check that every flag and dialect is explained). */
export const USAGE = `Usage: cloudplatform-simulator [options]
  --port N                 TCP port on 127.0.0.1 (default 0: any free port)
  --api-key KEY            full-rights token (default: random)
  --read-only-api-key KEY  read-only token (default: random)
  --seed FILE              seed JSON (default: built-in seed)
  --fault-seed N           seed of injected faults when the admin API sets none (replays a run)
  --time-scale N           simulated seconds per real second (default 1)
  --state-file FILE        keep state in FILE across restarts
  --dialect NAME           how answers are shaped, one of: ${DIALECTS.join(", ")} (default regular)
                             regular:    the most regular shapes the spec allows
                             public-api: every shape the platform's public OpenAPI and SDKs
                                         allow: optional fields omitted, empty lists as null,
                                         older field names on some instances, at most 10 items
                                         per cloud list page, regions without count, AI tasks in
                                         the Python SDK's shape, an extra Provisioning cluster,
                                         unknown fields and enum values, DNS JSON as text/plain,
                                         200 {} for storage event updates and deletes
                           (switch at run time: POST /__admin/dialect {"dialect": NAME};
                           see simulator/CONTRACT.md "Dialects")
  --reseller-paths WHICH   WAAP reseller paths served, one of: ${RESELLER_PATHS_SERVED.join(", ")} (default both)
                             public: /waap/v1/prebilling/total/{metric} and /waap/ping only
                             spec:   /waap/reseller/v1/prebilling/total/{metric} and
                                     /waap/reseller/ping only
                           (the other set answers 404; at run time POST /__admin/unserved
                           {"pathPrefix": ...} does the same; see simulator/CONTRACT.md)
  --ready-file FILE        once listening, write {"url", "port", "apiKey", "readOnlyApiKey",
                           "pid"} as JSON to FILE (for tests and scripts that start it in the
                           background: wait for FILE, then read it)
  --quiet                  do not log requests
  --help                   show this help`;

/** Reads a flag's value: `--flag=v` or `--flag v`. */
interface FlagValue {
  text(): string;
  /** The value as a finite number, or an error naming the flag. */
  number(): number;
}

/** What each flag does to the parsed command line. */
const FLAGS = new Map<string, (value: FlagValue, parsed: CliArgs, flag: string) => void>([
  ["--port", (v, p) => { p.options.port = v.number(); }],
  ["--api-key", (v, p) => { p.options.apiKey = v.text(); }],
  ["--read-only-api-key", (v, p) => { p.options.readOnlyApiKey = v.text(); }],
  ["--seed", (v, p) => { p.options.seed = v.text(); }],
  ["--fault-seed", (v, p, flag) => { p.options.faultSeed = nonNegativeInteger(v.number(), flag); }],
  ["--time-scale", (v, p) => { p.options.timeScale = v.number(); }],
  ["--state-file", (v, p) => { p.options.stateFile = v.text(); }],
  ["--dialect", (v, p, flag) => { p.options.dialect = parseDialect(v.text(), flag); }],
  ["--reseller-paths", (v, p, flag) => { p.options.resellerPaths = parseResellerPathsServed(v.text(), flag); }],
  ["--ready-file", (v, p) => { p.readyFile = v.text(); }],
  ["--quiet", (_v, p) => { p.options.log = false; }],
  ["--help", (_v, p) => { p.help = true; }],
  ["-h", (_v, p) => { p.help = true; }],
]);

function nonNegativeInteger(n: number, flag: string): number {
  if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer`);
  return n;
}

/** Parses argv (without node and script). Throws on unknown flags or bad values. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const parsed: CliArgs = { options: { log: (line) => process.stderr.write(`${line}\n`) }, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const apply = FLAGS.get(flag);
    if (!apply) throw new Error(`unknown option ${arg}`);
    const text = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const number = (): number => {
      const v = Number(text());
      if (!Number.isFinite(v)) throw new Error(`${flag} needs a number`);
      return v;
    };
    apply({ text, number }, parsed, flag);
  }
  return parsed;
}

/**
 * Writes what a client needs to `file`: first to a temporary file beside it, then renamed, so a
 * reader waiting for `file` never sees half of it.
 */
export function writeReadyFile(file: string, ready: { url: string; port: number; apiKey: string; readOnlyApiKey: string }): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify({ ...ready, pid: process.pid })}\n`);
  fs.renameSync(temporary, file);
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const sim = await startSimulator(args.options);
  // The file first: whoever reads the printed lines may count on it.
  if (args.readyFile !== undefined) writeReadyFile(args.readyFile, { url: sim.url, port: sim.port, apiKey: sim.apiKey, readOnlyApiKey: sim.readOnlyApiKey });
  process.stdout.write(`cloudplatform-simulator listening on ${sim.url}\napi key: ${sim.apiKey}\nread-only api key: ${sim.readOnlyApiKey}\n`);
  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`cloudplatform-simulator: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
