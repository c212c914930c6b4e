/**
 * Why the whole tree and not the one process: the CLI starts its language host and plugins in
 * process groups of their own, so neither a signal to the CLI nor one to its group reaches them,
 * and a CLI killed outright leaves them running under init. So the descendants are found
 * (parent links from /proc, or `ps` where there is no /proc) while the CLI still lives, and each
 * is signalled by its pid.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";

/** Parent pid of each live process, from /proc (Linux) or `ps` (macOS, BSD). */
function parentLinks(): Array<[pid: number, ppid: number]> {
  if (fs.existsSync("/proc/self/stat")) {
    return fs.readdirSync("/proc").flatMap((name): Array<[number, number]> => {
      if (!/^\d+$/.test(name)) return [];
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ")".
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return [[Number(name), ppid]];
      } catch {
        return [];
      }
    });
  }
  try {
    const text = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
    return text.split("\n").flatMap((line): Array<[number, number]> => {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      return pid && ppid !== undefined && !Number.isNaN(ppid) ? [[pid, ppid]] : [];
    });
  } catch {
    return [];
  }
}

/** The pids of every live descendant of `root`, nearest first. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentLinks()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift() as number;
    if (found.includes(pid)) continue;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Sends `signal` to each pid; one already gone is no error. */
export function signalAll(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // ESRCH: it ended meanwhile.
    }
  }
}

/** Whether `pid` is a live process (a zombie, dead but not yet reaped, is not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true;
  }
}
