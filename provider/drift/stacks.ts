/**
 * Which stacks a run previews: the named ones, every one of each project's backend
 * (`--all-stacks`), or each project's selected stack, then this shard's.
 *
 * Why the listing runs the CLI itself and not `LocalWorkspace.listStacks`: that call cannot be
 * bounded or stopped, and some backends never answer it (the PostgreSQL backend of Pulumi 3.248
 * with six or more stacks in a project); here it is stopped after `--list-timeout`.
 */
import { LocalWorkspace, type PulumiCommand, type StackSummary } from "@pulumi/pulumi/automation";
import { formatDuration } from "../api/duration";
import { CloudPlatformError, messageOf } from "../api/errors";
import { backendUrlOf, redactBackendUrl } from "./backend";
import { failureOf, pulumiEnv, runBounded } from "./bounded";
import { briefError } from "./classify";
import { stackKey, type ListingError } from "./report";
import { inShard, type Shard } from "./shard";

/** The stacks the command line asks for. */
export interface StackSpec {
  /** Project directories, absolute; the current directory when none was given. */
  readonly cwds: readonly string[];
  /** Stack names to preview in every project; empty with `allStacks` or for the selected stack. */
  readonly stacks: readonly string[];
  readonly allStacks: boolean;
  readonly shard?: Shard | undefined;
  /** How long a backend may take to list a project's stacks. */
  readonly listTimeoutMs: number;
}

/** One stack to preview. */
export interface StackTarget {
  readonly cwd: string;
  readonly project: string;
  readonly stack: string;
}

/** The stacks of this shard, and the project directories whose stacks could not be listed. */
export interface Selection {
  readonly targets: StackTarget[];
  readonly listingErrors: ListingError[];
}

class ListingTimeout extends CloudPlatformError {
  constructor(readonly backend: string, timeoutMs: number) {
    super(
      `the backend ${backend} did not list the stacks within ${formatDuration(timeoutMs)} (--list-timeout); ` +
        "the listing was stopped. Name the stacks with --stack NAME (repeatable): named stacks are previewed without a listing",
    );
  }
}

/** `pulumi stack ls --json` in the project of `ws`, stopped after `timeoutMs`. */
async function listStacks(ws: LocalWorkspace, pulumiCommand: PulumiCommand, timeoutMs: number): Promise<StackSummary[]> {
  const env = pulumiEnv(pulumiCommand.command);
  const run = await runBounded(pulumiCommand.command, ["stack", "ls", "--json", "--non-interactive"], { cwd: ws.workDir, env, timeoutMs });
  if (run.timedOut) throw new ListingTimeout(redactBackendUrl(backendUrlOf((await ws.projectSettings()).backend?.url)), timeoutMs);
  const failure = failureOf(run);
  if (failure !== undefined) throw new CloudPlatformError(failure);
  return JSON.parse(run.stdout) as StackSummary[];
}

/** The names of the stacks of the project in `ws` that `spec` asks for. */
async function stackNames(ws: LocalWorkspace, spec: StackSpec, pulumiCommand: PulumiCommand): Promise<string[]> {
  if (spec.stacks.length) return [...spec.stacks];
  const stacks = await listStacks(ws, pulumiCommand, spec.listTimeoutMs);
  if (spec.allStacks) return stacks.map((s) => s.name);
  const current = stacks.find((s) => s.current);
  if (!current) throw new CloudPlatformError(`no stack is selected in ${ws.workDir}: pass --stack NAME or --all-stacks`);
  return [current.name];
}

function listingError(cwd: string, err: unknown): ListingError {
  if (err instanceof ListingTimeout) return { cwd, error: err.message, timedOut: true, backend: err.backend };
  return { cwd, error: briefError(messageOf(err)) };
}

/** Lists the stacks of every project directory (reads only: nothing is selected) and keeps this shard's. */
export async function selectStacks(spec: StackSpec, pulumiCommand: PulumiCommand): Promise<Selection> {
  const targets: StackTarget[] = [];
  const listingErrors: ListingError[] = [];
  for (const cwd of spec.cwds) {
    try {
      const ws = await LocalWorkspace.create({ workDir: cwd, pulumiCommand });
      const project = (await ws.projectSettings()).name;
      for (const stack of await stackNames(ws, spec, pulumiCommand)) targets.push({ cwd, project, stack });
    } catch (err) {
      listingErrors.push(listingError(cwd, err));
    }
  }
  return { targets: inShard(targets, stackKey, spec.shard), listingErrors };
}
