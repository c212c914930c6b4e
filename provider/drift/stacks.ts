/**
 * Which stacks a run previews: the named ones, every one of each project's backend
 * (`--all-stacks`), or each project's selected stack, listed through the Automation API.
 */
import { LocalWorkspace, type PulumiCommand } from "@pulumi/pulumi/automation";
import { briefError } from "./classify";
import type { StackResult } from "./report";

/** One stack to preview. */
export interface StackTarget {
  readonly cwd: string;
  readonly project: string;
  readonly stack: string;
}

/** Stacks found, and a result of class `error` for each project whose stacks could not be listed. */
export interface Selection {
  readonly targets: StackTarget[];
  readonly failures: StackResult[];
}

/**
 * A workspace on `cwd` that never changes the user's selected stack: the Automation API selects
 * a stack (`pulumi stack select`, a write to PULUMI_HOME) before each operation, but every
 * operation also names its stack (`--stack`), so the select is skipped. A missing stack then
 * fails the preview itself, with the CLI's message.
 */
export async function readOnlyWorkspace(cwd: string, pulumiCommand: PulumiCommand): Promise<LocalWorkspace> {
  const ws = await LocalWorkspace.create({ workDir: cwd, pulumiCommand });
  ws.selectStack = async () => undefined;
  return ws;
}

/** The stacks of every project directory, as the options ask. */
export async function selectStacks(
  cwds: readonly string[],
  names: readonly string[],
  allStacks: boolean,
  pulumiCommand: PulumiCommand,
): Promise<Selection> {
  const targets: StackTarget[] = [];
  const failures: StackResult[] = [];
  for (const cwd of cwds) {
    let project = cwd;
    try {
      const ws = await readOnlyWorkspace(cwd, pulumiCommand);
      project = (await ws.projectSettings()).name;
      let stacks: string[];
      if (names.length) stacks = [...names];
      else if (allStacks) stacks = (await ws.listStacks()).map((s) => s.name);
      else {
        const current = await ws.stack();
        if (!current) throw new Error(`no stack is selected in ${cwd}: pass --stack NAME or --all-stacks`);
        stacks = [current.name];
      }
      for (const stack of stacks) targets.push({ cwd, project, stack });
    } catch (err) {
      failures.push({
        cwd,
        project,
        stack: "*",
        class: "error",
        resources: [],
        refusals: [],
        error: `cannot list the stacks of ${cwd}: ${briefError(String((err as Error)?.message ?? err))}`,
        startedAt: new Date().toISOString(),
        durationMs: 0,
      });
    }
  }
  return { targets, failures };
}
