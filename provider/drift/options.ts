/**
 * The command line of `cloudplatform-drift`, parsed with Node's own `util.parseArgs`.
 *
 * Why checked here, before any stack is touched: a pipeline with a wrong flag must fail at
 * once with exit status 2 and a message naming the flag, not after minutes of previews.
 */
import * as path from "path";
import { parseArgs } from "util";
import type { RunSpec } from "./run";
import { parseShard } from "./shard";

/** What a run does: the stacks, the parallelism, the reports. */
export interface DriftOptions extends RunSpec {
  readonly jsonFile?: string;
  readonly markdownFile?: string;
  readonly junitFile?: string;
  /** Only print the selected stacks (after sharding), one `project/stack` a line; preview nothing. */
  readonly list: boolean;
  readonly help: boolean;
}

/** The usage text (`--help`). */
export const USAGE = `Usage: cloudplatform-drift [options]

Runs a refresh-preview (writes nothing) of each selected stack and reports drift.

Which stacks:
  --cwd DIR         a Pulumi project directory (repeatable; default: the current directory)
  --stack NAME      a stack of each project (repeatable; default: each project's selected stack)
  --all-stacks      every stack of each project in its backend
  --shard I/N       only the stacks of shard I of N (stable: a hash of project/stack)

How:
  --parallel N      stacks previewed at once (default 2)
  --list-timeout D  how long a backend may take to list a project's stacks (default 5m); past it
                    the listing is stopped and reported as an error (name the stacks with --stack)
  --preview-timeout D
                    how long one stack's preview may take (default 30m); past it the preview is
                    stopped and the stack reported as an error
  --list            print the selected stacks (project/stack, one a line) and preview nothing

Reports (besides the summary on standard output):
  --json FILE       the report as JSON (format: docs/guides/drift-report.schema.json)
  --markdown FILE   the report as Markdown (e.g. $GITHUB_STEP_SUMMARY)
  --junit FILE      the report as JUnit XML: one test case per stack, a failure per drifted resource

Durations: 90s, 5m, 1h30m (whole seconds, 1s to 24h); a bare number is seconds.

Exit status: 0 all clean, 1 drift or drift-blocked found, 2 a stack errored (or bad usage).
`;

/** The defaults of `--list-timeout` and `--preview-timeout`. */
export const DEFAULT_LIST_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_PREVIEW_TIMEOUT_MS = 30 * 60_000;

/** `90s`, `5m`, `1h30m` or a bare number of seconds, in milliseconds. */
function duration(name: string, text: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  const seconds = /^\d+$/.test(text) ? Number(text) : m && text ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : NaN;
  // The upper bound also keeps the value within what Node's timers hold (2^31-1 ms, 24.8 days).
  if (!(seconds >= 1 && seconds <= 86_400)) {
    throw new Error(`${name} must be a duration from 1s to 24h such as 90s, 5m or 1h30m (a bare number is seconds), got ${JSON.stringify(text)}`);
  }
  return seconds * 1000;
}

function positiveInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** Parses `argv` (without node and the script); throws an Error whose message is for the user. */
export function parseOptions(argv: readonly string[], cwd: string = process.cwd()): DriftOptions {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      cwd: { type: "string", multiple: true },
      stack: { type: "string", multiple: true },
      "all-stacks": { type: "boolean" },
      shard: { type: "string" },
      parallel: { type: "string" },
      "list-timeout": { type: "string" },
      "preview-timeout": { type: "string" },
      json: { type: "string" },
      markdown: { type: "string" },
      junit: { type: "string" },
      list: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const stacks = values.stack ?? [];
  const allStacks = values["all-stacks"] ?? false;
  if (allStacks && stacks.length) throw new Error("--stack and --all-stacks exclude each other: name stacks, or take all of them");
  return {
    cwds: (values.cwd?.length ? values.cwd : [cwd]).map((d) => path.resolve(cwd, d)),
    stacks,
    allStacks,
    ...(values.shard !== undefined ? { shard: parseShard(values.shard) } : {}),
    parallel: values.parallel === undefined ? 2 : positiveInteger("--parallel", values.parallel),
    listTimeoutMs: values["list-timeout"] === undefined ? DEFAULT_LIST_TIMEOUT_MS : duration("--list-timeout", values["list-timeout"]),
    previewTimeoutMs: values["preview-timeout"] === undefined ? DEFAULT_PREVIEW_TIMEOUT_MS : duration("--preview-timeout", values["preview-timeout"]),
    ...(values.json !== undefined ? { jsonFile: path.resolve(cwd, values.json) } : {}),
    ...(values.markdown !== undefined ? { markdownFile: path.resolve(cwd, values.markdown) } : {}),
    ...(values.junit !== undefined ? { junitFile: path.resolve(cwd, values.junit) } : {}),
    list: values.list ?? false,
    help: values.help ?? false,
  };
}
