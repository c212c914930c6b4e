/**
 * The Pulumi CLI as a child process that a test can SIGKILL, with everything it started.
 *
 * Why a session: the CLI is spawned detached, so it leads a new session (and process group);
 * the engine starts its plugins (language host, dynamic provider) in process groups of their
 * own, but they stay in the CLI's session. Killing every live member of that session, one by
 * one by id, reaches all of them, and nothing else.
 */
import { execFileSync, spawn, type ChildProcess } from "child_process";
import * as path from "path";

/** A process of the session: id, state and command line. */
export interface SessionProcess {
  pid: number;
  stat: string;
  args: string;
}

/** Processes of a session, zombies excluded (dead, just not reaped yet). */
export function sessionProcesses(sid: number): SessionProcess[] {
  const ps = execFileSync("ps", ["-e", "-o", "pid=,sid=,stat=,args="], { encoding: "utf8" });
  const out: SessionProcess[] = [];
  for (const line of ps.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!m || Number(m[2]) !== sid || String(m[3]).startsWith("Z")) continue;
    out.push({ pid: Number(m[1]), stat: String(m[3]), args: String(m[4]) });
  }
  return out;
}

/** Ids of the live processes of a session. */
export function liveSessionMembers(sid: number): number[] {
  return sessionProcesses(sid).map((p) => p.pid);
}

/** SIGKILL every live process of the session, one by one, by id. */
export function killSession(sid: number): void {
  for (const pid of liveSessionMembers(sid)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Polls `cond` every 50 ms; throws after `limitMs` with `detail()` in the message. */
export async function until(what: string, cond: () => boolean | Promise<boolean>, limitMs: number, detail: () => string): Promise<void> {
  const started = Date.now();
  while (!(await cond())) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}; ${detail()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A spawned CLI run. */
export interface CliRun {
  proc: ChildProcess;
  /** Session id (= the CLI's pid) until the run is known to be over. */
  sid: number;
  /** Everything the CLI printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the signal that ended the CLI (null when it exited by itself). */
  exited: Promise<NodeJS.Signals | null>;
}

/**
 * Starts `pulumi <args>` from `<root>/bin` in `cwd` with `env` added to this process's
 * environment (`<root>/bin` first on `env.PATH`, or this process's PATH), in a session of its own.
 */
export function spawnPulumi(root: string, args: string[], cwd: string, env: Record<string, string>): CliRun {
  let output = "";
  const proc = spawn(path.join(root, "bin", "pulumi"), args, {
    cwd,
    env: { ...process.env, ...env, PATH: `${path.join(root, "bin")}${path.delimiter}${env.PATH ?? process.env.PATH ?? ""}` },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (b: Buffer) => (output += b.toString()));
  proc.stderr!.on("data", (b: Buffer) => (output += b.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on("exit", (_code, signal) => resolve(signal)));
  return { proc, sid: proc.pid!, output: () => output, exited };
}

/**
 * SIGKILLs the whole session of a run and waits until none of its processes is alive (the
 * dynamic-provider and language-host processes included). Resolves with the processes that
 * were alive at the kill.
 */
export async function killRun(run: CliRun, limitMs = 30_000): Promise<SessionProcess[]> {
  const before = sessionProcesses(run.sid);
  killSession(run.sid);
  const signal = await run.exited;
  if (signal !== "SIGKILL") throw new Error(`the CLI ended with ${String(signal)} instead of SIGKILL; output:\n${run.output()}`);
  await until(
    "the killed processes to be gone",
    () => (killSession(run.sid), liveSessionMembers(run.sid).length === 0),
    limitMs,
    () => `still alive: ${JSON.stringify(sessionProcesses(run.sid))}`,
  );
  return before;
}
