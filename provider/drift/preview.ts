/**
 * One stack's refresh-preview, classified.
 *
 * `pulumi preview --refresh --run-program` reads the live objects and plans the next `up` without
 * persisting either. `--run-program` makes the refresh read with the program's providers,
 * configured from the current stack config, as the next `up` will: without it the engine reads
 * with the provider settings saved in the state at the last `up`, so after an API key rotation
 * every stack would report the old key's 401.
 *
 * Why the CLI itself and not the Automation API's `Stack`: a `Stack` is always selected first
 * (`pulumi stack select` rewrites the user's selected stack), while this preview only names its
 * stack (`--stack`). Otherwise it runs as the Automation API runs it: `--exec-kind auto.local`,
 * and the engine events written to `--event-log` (a flag the CLI offers while
 * `PULUMI_DEBUG_COMMANDS` is set), read once the CLI exits.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { EngineEvent, PulumiCommand } from "@pulumi/pulumi/automation";
import { formatDuration } from "../api/duration";
import { failureOf, pulumiEnv, runBounded } from "./bounded";
import { classify } from "./classify";
import type { StackResult } from "./report";
import type { StackTarget } from "./stacks";

/** What a preview left: the engine's events, and the CLI's error output when it failed. */
interface PreviewRun {
  readonly events: EngineEvent[];
  readonly failure?: string;
  /** It did not finish within `--preview-timeout` and was stopped. */
  readonly timedOut?: true;
}

function previewTimeoutMessage(timeoutMs: number): string {
  return `the preview did not finish within ${formatDuration(timeoutMs)} (--preview-timeout) and was stopped, with the processes it started`;
}

/** The engine events of a finished run's event log, one JSON object a line; a line cut short is skipped. */
export function readEventLog(file: string): EngineEvent[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  return text.split("\n").flatMap((line) => {
    try {
      return line.trim() ? [JSON.parse(line) as EngineEvent] : [];
    } catch {
      return [];
    }
  });
}

/** The engine ends every preview it ran with a summary: a successful run without one lost its events, and must not pass as clean. */
export function checkedRun(events: EngineEvent[], failure: string | undefined): PreviewRun {
  if (failure !== undefined) return { events, failure };
  if (events.some((e) => e.summaryEvent)) return { events };
  return { events, failure: "the preview ended, but its engine events could not be read (the event log has no summary)" };
}

async function runPreview(target: StackTarget, pulumiCommand: PulumiCommand, timeoutMs: number): Promise<PreviewRun> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-drift-"));
  const eventLog = path.join(dir, "events.jsonl");
  const args = ["preview", "--refresh", "--run-program=true", "--color", "never", "--suppress-progress", "--non-interactive"];
  args.push("--exec-kind", "auto.local", "--event-log", eventLog, "--stack", target.stack);
  const env = pulumiEnv(pulumiCommand.command, { PULUMI_DEBUG_COMMANDS: "true" });
  try {
    const run = await runBounded(pulumiCommand.command, args, { cwd: target.cwd, env, timeoutMs });
    if (run.timedOut) return { events: readEventLog(eventLog), failure: previewTimeoutMessage(timeoutMs), timedOut: true as const };
    return checkedRun(readEventLog(eventLog), failureOf(run));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Previews `target`, stopped after `timeoutMs`, and classifies what the engine reported. */
export async function previewStack(target: StackTarget, pulumiCommand: PulumiCommand, timeoutMs: number): Promise<StackResult> {
  const started = Date.now();
  const { events, failure, timedOut } = await runPreview(target, pulumiCommand, timeoutMs);
  const classified = classify(events, failure);
  // A stopped preview is an error whatever its events showed so far, and says why.
  const outcome = timedOut ? { ...classified, class: "error" as const, error: failure, timedOut } : classified;
  return { ...target, ...outcome, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started };
}
