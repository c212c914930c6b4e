/**
 * Which stacks a run previews: the named ones, every one of each project's backend
 * (`--all-stacks`), or each project's selected stack, then this shard's.
 */
import { LocalWorkspace, type PulumiCommand } from "@pulumi/pulumi/automation";
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

/** The names of the stacks of the project in `ws` that `spec` asks for. */
async function stackNames(ws: LocalWorkspace, spec: StackSpec): Promise<string[]> {
  if (spec.stacks.length) return [...spec.stacks];
  if (spec.allStacks) return (await ws.listStacks()).map((s) => s.name);
  const current = await ws.stack();
  if (!current) throw new Error(`no stack is selected in ${ws.workDir}: pass --stack NAME or --all-stacks`);
  return [current.name];
}

/** Lists the stacks of every project directory (reads only: nothing is selected) and keeps this shard's. */
export async function selectStacks(spec: StackSpec, pulumiCommand: PulumiCommand): Promise<Selection> {
  const targets: StackTarget[] = [];
  const listingErrors: ListingError[] = [];
  for (const cwd of spec.cwds) {
    try {
      const ws = await LocalWorkspace.create({ workDir: cwd, pulumiCommand });
      const project = (await ws.projectSettings()).name;
      for (const stack of await stackNames(ws, spec)) targets.push({ cwd, project, stack });
    } catch (err) {
      listingErrors.push({ cwd, error: briefError(String((err as Error)?.message ?? err)) });
    }
  }
  return { targets: inShard(targets, stackKey, spec.shard), listingErrors };
}
