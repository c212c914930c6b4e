/** A whole drift run: select the stacks, preview them `parallel` at a time, build the report (cli.ts renders it). */
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { runLimited } from "./pool";
import { previewStack } from "./preview";
import { countByClass, exitCodeOf, REPORT_FORMAT_VERSION, stackKey, type DriftReport, type ListingError, type StackResult } from "./report";
import { selectStacks, type StackSpec } from "./stacks";

/** What to run: the stacks, the parallelism and the bound of each preview of the command line. */
export interface RunSpec extends StackSpec {
  readonly parallel: number;
  readonly previewTimeoutMs: number;
}

/** Progress callbacks, for the terminal (a line per stack, a live count). */
export interface RunObserver {
  /** The stacks of this run are known. */
  selected?(total: number): void;
  listingFailed?(error: ListingError): void;
  started?(key: string): void;
  finished?(result: StackResult): void;
}

/** Runs the previews and returns the report (never throws for a stack's failure: it is a result). */
export async function runDrift(spec: RunSpec, observer: RunObserver = {}): Promise<DriftReport> {
  const started = Date.now();
  const pulumiCommand = await PulumiCommand.get();
  const { targets, listingErrors } = await selectStacks(spec, pulumiCommand);
  observer.selected?.(targets.length);
  for (const e of listingErrors) observer.listingFailed?.(e);
  const stacks = await runLimited(targets, spec.parallel, async (target) => {
    observer.started?.(stackKey(target));
    const result = await previewStack(target, pulumiCommand, spec.previewTimeoutMs);
    observer.finished?.(result);
    return result;
  });
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    tool: "cloudplatform-drift",
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    ...(spec.shard ? { shard: spec.shard } : {}),
    counts: countByClass(stacks),
    exitCode: exitCodeOf(stacks, listingErrors),
    listingErrors,
    stacks,
  };
}
