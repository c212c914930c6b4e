/**
 * A whole drift run: select the stacks, keep this shard's, preview them `parallel` at a time,
 * and build the report. The CLI (cli.ts) adds the outputs; tests and bench call this directly.
 */
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { runLimited } from "./pool";
import { previewStack } from "./preview";
import { countByClass, exitCodeOf, REPORT_FORMAT_VERSION, stackKey, type DriftReport, type StackResult } from "./report";
import { inShard, type Shard } from "./shard";
import { selectStacks, type StackTarget } from "./stacks";

/** What to run (the stack selection and the parallelism of the command line). */
export interface RunSpec {
  readonly cwds: readonly string[];
  readonly stacks: readonly string[];
  readonly allStacks: boolean;
  readonly shard?: Shard | undefined;
  readonly parallel: number;
}

/** The stacks a run would preview (this shard's), and the projects whose stacks could not be listed. */
export async function selectedStacks(spec: RunSpec, pulumiCommand: PulumiCommand): Promise<{ targets: StackTarget[]; failures: StackResult[] }> {
  const selection = await selectStacks(spec.cwds, spec.stacks, spec.allStacks, pulumiCommand);
  return { targets: inShard(selection.targets, stackKey, spec.shard), failures: selection.failures };
}

/** Progress callbacks, for the terminal (a line per stack, a live count). */
export interface RunObserver {
  /** The stacks of this run are known. */
  selected?(total: number): void;
  started?(key: string): void;
  finished?(result: StackResult): void;
}

/** Runs the previews and returns the report (never throws for a stack's failure: it is a result). */
export async function runDrift(spec: RunSpec, observer: RunObserver = {}): Promise<DriftReport> {
  const started = Date.now();
  const pulumiCommand = await PulumiCommand.get();
  const selection = await selectedStacks(spec, pulumiCommand);
  const targets = selection.targets;
  observer.selected?.(targets.length + selection.failures.length);
  for (const f of selection.failures) observer.finished?.(f);
  const results = await runLimited(targets, spec.parallel, async (target) => {
    observer.started?.(stackKey(target));
    const result = await previewStack(target, pulumiCommand);
    observer.finished?.(result);
    return result;
  });
  const stacks = [...selection.failures, ...results];
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    tool: "cloudplatform-drift",
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    ...(spec.shard ? { shard: spec.shard } : {}),
    counts: countByClass(stacks),
    exitCode: exitCodeOf(stacks),
    stacks,
  };
}
