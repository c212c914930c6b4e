/**
 * Runs a `pulumi` command with a bound on how long it may take.
 *
 * Why not the Automation API's own runner: `LocalWorkspace` passes no cancellation to the CLI it
 * starts (its `runPulumiCmd` takes no signal), so a backend that never answers holds a pipeline
 * until the CI job's own limit. Here, once the bound is hit, the CLI and every process it started
 * get SIGTERM, then SIGKILL after a grace period, and the run reports that it timed out.
 */
import { execFile, spawn } from "child_process";
import * as path from "path";
import { descendantsOf, isAlive, signalAll } from "./processTree";

/** How a bounded run ended. */
export interface BoundedRun {
  /** The exit status; undefined when the process could not start or was stopped. */
  readonly code?: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The bound was hit: the process and its descendants were stopped. */
  readonly timedOut: boolean;
  /** Why the process could not be started (ENOENT, EACCES). */
  readonly startError?: Error;
}

/** Where and how long a bounded run runs. */
export interface BoundedOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL (default 3 s). */
  readonly graceMs?: number;
}

/**
 * The environment a `pulumi` at `command` runs in, as the Automation API sets it: a CLI given by
 * path finds the plugins installed beside it first.
 */
export function pulumiEnv(command: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const PATH = path.isAbsolute(command) ? [path.dirname(command), process.env.PATH].join(path.delimiter) : process.env.PATH;
  return { ...process.env, PATH, ...extra };
}

/** The text of a run that failed (its output, else why it could not start), or undefined when it succeeded. */
export function failureOf(run: BoundedRun): string | undefined {
  if (run.code === 0) return undefined;
  return `${run.stdout}\n${run.stderr}`.trim() || (run.startError?.message ?? `pulumi exited with ${run.code ?? "a signal"}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function allEnded(pids: ReadonlySet<number>, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; Date.now() < deadline && [...pids].some(isAlive); ) await sleep(50);
}

/**
 * Stops `pid` and its descendants: SIGTERM to each, then SIGKILL to each still alive after
 * `graceMs` (and to what they started meanwhile). Resolves once none lives, so nothing of the
 * tree outlives a run that reported its timeout.
 */
async function stopTree(pid: number, graceMs: number): Promise<void> {
  if (process.platform === "win32") {
    await new Promise((r) => execFile("taskkill", ["/pid", String(pid), "/T", "/F"], r));
    return;
  }
  const tree = new Set([pid, ...descendantsOf(pid)]);
  signalAll(tree, "SIGTERM");
  await allEnded(tree, graceMs);
  for (const p of [...tree]) if (isAlive(p)) descendantsOf(p).forEach((d) => tree.add(d));
  signalAll([...tree].filter(isAlive), "SIGKILL");
  await allEnded(tree, 2000);
}

/** Runs `command args` and resolves once it ended, or once it was stopped at the bound. */
export function runBounded(command: string, args: readonly string[], options: BoundedOptions): Promise<BoundedRun> {
  const graceMs = options.graceMs ?? 3000;
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    let timedOut = false;
    let settled = false;
    const finish = (code: number | null, startError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(bound);
      resolve({ ...(code === null || timedOut ? {} : { code }), stdout, stderr, timedOut, ...(startError ? { startError } : {}) });
    };
    const bound = setTimeout(() => {
      timedOut = true;
      // Not waiting for the pipes to close: a process that left the tree may still hold them.
      if (child.pid !== undefined) void stopTree(child.pid, graceMs).then(() => finish(null));
    }, options.timeoutMs);
    child.once("error", (e) => finish(null, e));
    child.once("close", (code) => timedOut || finish(code));
  });
}
