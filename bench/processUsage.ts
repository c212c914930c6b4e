/**
 * CPU time, peak resident memory and bytes written of one stack's Pulumi processes during an
 * operation, by role (the engine, the provider, the language host), read from Linux `/proc`.
 *
 * Why per process: on a `file://` (or S3, Azure Blob, GCS) backend the engine rewrites the whole
 * checkpoint after every step, in the `pulumi` process, while the resources' own work runs in
 * the provider process. Their CPU times show which side a slow operation spends its time on,
 * and they scatter far less than wall time on a shared machine. The processes are children of
 * the Pulumi CLI, started and stopped by it for every operation, so they are sampled while they
 * live; the stack's processes are told apart from other engineers' by the `PULUMI_HOME` in their
 * environment (each bench stack has its own). A process's last interval (at most `everyMs`) of
 * CPU is not seen, nor a process that lives less than one interval.
 */
import * as fs from "fs";

/** What a process of the stack is. */
export type ProcessRole = "engine" | "provider" | "language host" | "other";

/** Roles by command line, first match wins. */
const ROLE_COMMANDS: ReadonlyArray<[ProcessRole, RegExp]> = [
  // The engine's dynamic-provider host (dynamic resources and the no-op baseline), or the plugin
  // (`bin/pulumi-resource-cloudplatform` runs dist/provider/plugin/main.js).
  ["provider", /cmd\/dynamic-provider|provider\/plugin\/main\.js/],
  ["language host", /pulumi-language-nodejs/],
  ["engine", /(^|\/)pulumi\s/],
];

/** Usage of the processes of one role, summed. */
export interface RoleUsage {
  processes: number;
  cpuSeconds: number;
  /** The highest `VmHWM` of one process of the role. */
  peakRssBytes: number | undefined;
  /** Bytes the role's processes passed to `write` (files, pipes and sockets; `wchar`). */
  writtenBytes: number;
}

export type ProcessUsage = Record<ProcessRole, RoleUsage>;

interface Seen {
  role: ProcessRole;
  cpuTicks: number;
  peakRss: number | undefined;
  written: number;
}

/** Clock ticks per second of `/proc/<pid>/stat` times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The fields of `/proc/<pid>/stat` after the command's parenthesis (field 3 is index 0). */
function statFields(pid: string): string[] | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  return stat ? stat.slice(stat.lastIndexOf(")") + 2).split(" ") : undefined;
}

function peakRss(pid: string): number | undefined {
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readText(`/proc/${pid}/status`) ?? "");
  return m ? Number(m[1]) * 1024 : undefined;
}

function written(pid: string): number | undefined {
  const m = /^wchar:\s+(\d+)/m.exec(readText(`/proc/${pid}/io`) ?? "");
  return m ? Number(m[1]) : undefined;
}

function roleOf(cmdline: string): ProcessRole {
  return ROLE_COMMANDS.find(([, command]) => command.test(cmdline))?.[0] ?? "other";
}

/**
 * Samples, every `everyMs`, the processes whose environment has `PULUMI_HOME=<pulumiHome>`.
 * `stop()` returns the usage by role (all zero when nothing was seen, e.g. not on Linux).
 */
export function sampleProcesses(pulumiHome: string, everyMs = 100): { stop(): ProcessUsage } {
  const ours = new Map<string, boolean>();
  const seen = new Map<string, Seen>();
  const scan = (): void => {
    let pids: string[];
    try {
      pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    } catch {
      return;
    }
    for (const pid of pids) {
      const stat = statFields(pid);
      if (!stat) continue;
      // pid and start time: on a busy machine pids wrap around within one long operation.
      const key = `${pid}:${stat[19]}`;
      let mine = ours.get(key);
      if (mine === undefined) {
        const environ = readText(`/proc/${pid}/environ`);
        if (environ === undefined) continue;
        mine = environ.split("\0").includes(`PULUMI_HOME=${pulumiHome}`);
        // A child of this process (the CLI, forked by the Automation API) has this process's
        // environment until it execs: decide at a later scan.
        if (!mine && Number(stat[1]) === process.pid) continue;
        ours.set(key, mine);
      }
      if (!mine) continue;
      // Read each time: a launcher script becomes the provider by exec, keeping its pid.
      const cmdline = readText(`/proc/${pid}/cmdline`);
      if (cmdline === undefined) continue;
      const before = seen.get(key);
      const rss = peakRss(pid);
      seen.set(key, {
        role: roleOf(cmdline.replace(/\0/g, " ")),
        // utime + stime (fields 14 and 15)
        cpuTicks: Number(stat[11]) + Number(stat[12]),
        peakRss: rss === undefined ? before?.peakRss : Math.max(rss, before?.peakRss ?? 0),
        written: written(pid) ?? before?.written ?? 0,
      });
    }
  };
  const timer = setInterval(scan, everyMs);
  scan();
  return {
    stop() {
      clearInterval(timer);
      scan();
      const usage = {} as ProcessUsage;
      for (const [role] of [...ROLE_COMMANDS, ["other"] as const]) usage[role] = { processes: 0, cpuSeconds: 0, peakRssBytes: undefined, writtenBytes: 0 };
      for (const s of seen.values()) {
        const u = usage[s.role];
        u.processes++;
        u.cpuSeconds += s.cpuTicks / TICKS_PER_SECOND;
        u.writtenBytes += s.written;
        if (s.peakRss !== undefined) u.peakRssBytes = Math.max(u.peakRssBytes ?? 0, s.peakRss);
      }
      return usage;
    },
  };
}
