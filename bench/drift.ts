/**
 * Measurement 10: drift reports. N stacks (default 50) of R StorageEvents each (default 20) in
 * one project, deployed once; then, with nothing changed (the cost of a clean scheduled run):
 * - a plain `pulumi preview --refresh` per stack, one after another, as a shell loop runs them;
 * - the same with `--run-program`, as the drift command runs each preview (its refresh reads with
 *   the program's providers, so a rotated API key works): what that costs against the plain one;
 * - `cloudplatform-drift --all-stacks --parallel 1` (the same work, one stack at a time: its
 *   per-stack cost against the plain preview's);
 * - `cloudplatform-drift --all-stacks --parallel P` (default 2: what a runner gets).
 * Wall time, per-stack time, the drift process's own peak memory (VmHWM) and the highest sum of
 * the resident memory of every process of the run (the CLI, language hosts, providers) sampled
 * every 200 ms. Processes run as users run them (no test-suite speed-ups).
 *
 * Knobs: `BENCH_DRIFT_STACKS`, `BENCH_DRIFT_RESOURCES`, `BENCH_DRIFT_PARALLEL`.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { offlineEnv, pulumiRoot, runPulumi, writeProgramDir } from "../tests/integration/harness";
import { progress, ROOT, secs, startSim, timed } from "./common";
import type { Section } from "./report";

const KINDS = [
  ["reaching_used_space", "bytes"],
  ["reaching_files_quantity", "count"],
  ["reaching_used_traffic", "bytes"],
  ["reaching_used_requests", "count"],
] as const;

/** R events per stack, identities unique across the stacks (the storage name holds the stack). */
function programSource(resources: number): string {
  return `const pulumi = require("@pulumi/pulumi");
const { StorageEvent } = require("pulumi-cloudplatform");
const kinds = ${JSON.stringify(KINDS)};
for (let i = 0; i < ${resources}; i++) {
  const [name, limit] = kinds[i % kinds.length];
  new StorageEvent("e" + i, { name, storageName: pulumi.getStack() + "-" + i, [limit]: 1000 + i });
}
`;
}

function knob(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Resident memory (kB field of /proc/<pid>/status) of a process, or 0 when it is gone. */
function statusKb(pid: string, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs a command; resolves with its wall time, exit code, its own peak RSS and the run's peak summed RSS. */
function measured(command: string, args: string[], cwd: string, env: Record<string, string>, home: string): Promise<{ ms: number; code: number; ownPeak: number; totalPeak: number }> {
  const started = Date.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let ownPeak = 0;
  let totalPeak = 0;
  const sample = () => {
    ownPeak = Math.max(ownPeak, statusKb(String(child.pid), "VmHWM"));
    let total = 0;
    for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`PULUMI_HOME=${home}`)) total += statusKb(pid, "VmRSS");
      } catch {
        // gone, or not ours to read
      }
    }
    totalPeak = Math.max(totalPeak, total);
  };
  const timer = setInterval(sample, 200);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("close", (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`${path.basename(args[0] ?? command)} exited ${code}: ${stderr.slice(-400)}`));
      else resolve({ ms: Date.now() - started, code: code ?? 0, ownPeak, totalPeak });
    }),
  );
}

function mb(bytes: number): string {
  return bytes ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : "n/a";
}

/** Deploys the stacks, measures the three runs, and renders the section. */
export async function driftSection(): Promise<Section> {
  const stacks = knob("BENCH_DRIFT_STACKS", 50);
  const resources = knob("BENCH_DRIFT_RESOURCES", 20);
  const parallel = knob("BENCH_DRIFT_PARALLEL", 2);
  const { sim } = await startSim({ timeScale: 30 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudplatform-bench-drift-"));
  const home = path.join(dir, "home");
  try {
    for (const d of ["backend", "home"]) fs.mkdirSync(path.join(dir, d));
    const project = path.join(dir, "project");
    writeProgramDir(project, "drift-bench", programSource(resources));
    const bin = path.join(pulumiRoot(), "bin");
    const env = { ...offlineEnv(home), PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` };
    const cli = async (args: string[]) => {
      const r = await runPulumi([...args, "--non-interactive"], project, env);
      if (r.code !== 0) throw new Error(`pulumi ${args.join(" ")}: ${(r.stdout + r.stderr).slice(-600)}`);
    };
    const names = Array.from({ length: stacks }, (_, i) => `s${String(i).padStart(3, "0")}`);
    progress(`drift: deploying ${stacks} stacks of ${resources} events`);
    const deploy = async (s: string) => {
      await cli(["stack", "init", s]);
      await cli(["config", "set", "cloudplatform:baseUrl", sim.url, "--stack", s]);
      await cli(["config", "set", "--secret", "cloudplatform:apiKey", sim.apiKey, "--stack", s]);
      await cli(["up", "--yes", "--skip-preview", "--stack", s]);
    };
    for (let i = 0; i < names.length; i += 3) await Promise.all(names.slice(i, i + 3).map(deploy));

    const plainLoop = (extra: string[]) =>
      timed(async () => {
        let ownPeak = 0;
        let totalPeak = 0;
        for (const s of names) {
          const r = await measured(path.join(bin, "pulumi"), ["preview", "--refresh", ...extra, "--stack", s, "--non-interactive", "--color", "never"], project, env, home);
          ownPeak = Math.max(ownPeak, r.ownPeak);
          totalPeak = Math.max(totalPeak, r.totalPeak);
        }
        return { ownPeak, totalPeak };
      });
    progress("drift: plain pulumi preview --refresh per stack");
    const plain = await plainLoop([]);
    progress("drift: plain pulumi preview --refresh --run-program per stack");
    const runProgram = await plainLoop(["--run-program"]);
    const driftCli = path.join(ROOT, "dist/provider/drift/cli.js");
    const driftRun = (p: number) => measured(process.execPath, [driftCli, "--cwd", project, "--all-stacks", "--parallel", String(p), "--json", path.join(dir, `drift-${p}.json`)], project, env, home);
    progress("drift: cloudplatform-drift --parallel 1");
    const one = await driftRun(1);
    progress(`drift: cloudplatform-drift --parallel ${parallel}`);
    const many = parallel === 1 ? one : await driftRun(parallel);
    const report = JSON.parse(fs.readFileSync(path.join(dir, `drift-${parallel}.json`), "utf8")) as { counts: Record<string, number> };

    const per = (ms: number) => secs(ms / stacks);
    return {
      title: "10. Drift reports",
      method:
        `${stacks} stacks of ${resources} StorageEvents (dynamic path) in one project on a file backend, nothing changed since their up; ` +
        "each run previews every stack with a refresh. Peak memory: the measured process's own VmHWM (for the plain loop, the largest pulumi process), " +
        "and the highest sum of the resident memory of all processes of the run, sampled every 200 ms.",
      tables: [
        {
          headers: ["Run", "Wall time", "Per stack", "Own peak memory", "Peak memory, all processes"],
          rows: [
            ["plain `pulumi preview --refresh`, one stack after another", secs(plain.ms), per(plain.ms), mb(plain.result.ownPeak), mb(plain.result.totalPeak)],
            ["plain `pulumi preview --refresh --run-program` (what the drift command runs)", secs(runProgram.ms), per(runProgram.ms), mb(runProgram.result.ownPeak), mb(runProgram.result.totalPeak)],
            ["`cloudplatform-drift --parallel 1`", secs(one.ms), per(one.ms), mb(one.ownPeak), mb(one.totalPeak)],
            [`\`cloudplatform-drift --parallel ${parallel}\``, secs(many.ms), per(many.ms), mb(many.ownPeak), mb(many.totalPeak)],
          ],
        },
      ],
      notes: [
        `Classes of the last run: ${JSON.stringify(report.counts)}.`,
        `Cost of \`--run-program\` (the refresh reads with the program's providers, configured from the current config): ${(runProgram.ms / plain.ms).toFixed(2)}x the plain preview.`,
        `Per-stack cost of the drift command at --parallel 1 against the plain preview with \`--run-program\`: ${(one.ms / runProgram.ms).toFixed(2)}x. ` +
          "The command adds per run one `pulumi stack ls` per project and the Automation API's `pulumi version`, and per stack the engine's event stream; " +
          "the plain loop prints each preview's text. Compare the two on an idle machine: other load scatters single runs.",
      ],
      targets: [],
    };
  } finally {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
