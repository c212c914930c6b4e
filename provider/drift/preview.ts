/**
 * One stack's refresh-preview through the Automation API, classified.
 *
 * `pulumi preview --refresh --run-program` reads the live objects and plans the next `up`
 * without persisting either: the state and the platform are left as they were (the integration
 * test checks the backend's files and the simulator's request log). `--run-program` makes the
 * refresh read with the program's providers, configured from the current stack config, as the
 * next `up` will: without it the engine reads with the provider settings saved in the state at
 * the last `up`, so after an API key rotation every stack would report the old key's 401.
 */
import { Stack, type EngineEvent, type PulumiCommand } from "@pulumi/pulumi/automation";
import { messageOf } from "../api/errors";
import { classify } from "./classify";
import type { StackResult } from "./report";
import { readOnlyWorkspace, type StackTarget } from "./stacks";

/** Previews `target` in its own workspace and classifies what the engine reported. */
export async function previewStack(target: StackTarget, pulumiCommand: PulumiCommand): Promise<StackResult> {
  const started = Date.now();
  const events: EngineEvent[] = [];
  let failure: string | undefined;
  try {
    const ws = await readOnlyWorkspace(target.cwd, pulumiCommand);
    const stack = await Stack.select(target.stack, ws);
    await stack.preview({ refresh: true, runProgram: true, color: "never", suppressProgress: true, onEvent: (e) => events.push(e) });
  } catch (err) {
    failure = messageOf(err) || "the preview failed";
  }
  return { ...target, ...classify(events, failure), startedAt: new Date(started).toISOString(), durationMs: Date.now() - started };
}
