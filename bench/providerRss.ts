/**
 * Peak resident memory of the provider process of one stack, read from Linux `/proc`.
 *
 * Why /proc and not the engine: the provider is a child of the Pulumi CLI, started and stopped
 * by it for every operation; its kernel high-water mark (`VmHWM`) is the peak we want, and it
 * is readable for as long as the process lives. The stack's processes are told apart from
 * other engineers' by the `PULUMI_HOME` in their environment (each bench stack has its own).
 */
import * as fs from "fs";

/** Which process counts as the provider, by its command line. */
export const PROVIDER_COMMANDS = {
  /** The engine's dynamic-provider host (StorageEvent on the dynamic path, and the no-op baseline). */
  dynamic: /cmd\/dynamic-provider/,
  /** The native plugin (`bin/pulumi-resource-cloudplatform` runs dist/provider/plugin/main.js). */
  plugin: /provider\/plugin\/main\.js/,
} as const;

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `VmHWM` of a process in bytes, if it is still there. */
function peakRss(pid: string): number | undefined {
  const status = readText(`/proc/${pid}/status`);
  const m = status ? /^VmHWM:\s+(\d+)\s+kB/m.exec(status) : null;
  return m ? Number(m[1]) * 1024 : undefined;
}

/**
 * Samples, every `everyMs`, the peak RSS of the processes whose command line matches `command`
 * and whose environment has `PULUMI_HOME=<pulumiHome>`. `stop()` returns the highest peak seen
 * (undefined when no such process was seen, e.g. not on Linux).
 */
export function samplePeakRss(pulumiHome: string, command: RegExp, everyMs = 200): { stop(): number | undefined } {
  const ours = new Map<string, boolean>();
  let peak: number | undefined;
  const scan = (): void => {
    let pids: string[];
    try {
      pids = fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    } catch {
      return;
    }
    for (const pid of pids) {
      let mine = ours.get(pid);
      if (mine === undefined) {
        const cmdline = readText(`/proc/${pid}/cmdline`);
        if (cmdline === undefined) continue;
        mine = command.test(cmdline.replace(/\0/g, " ")) && (readText(`/proc/${pid}/environ`) ?? "").split("\0").includes(`PULUMI_HOME=${pulumiHome}`);
        ours.set(pid, mine);
      }
      if (!mine) continue;
      const rss = peakRss(pid);
      if (rss !== undefined && (peak === undefined || rss > peak)) peak = rss;
    }
  };
  const timer = setInterval(scan, everyMs);
  return {
    stop() {
      clearInterval(timer);
      scan();
      return peak;
    },
  };
}
