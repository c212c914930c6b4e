/**
 * `make bench`: runs every measurement against in-process simulators and real Pulumi runs,
 * prints the report, writes it to bench/report.md and records its figures in bench/README.md.
 *
 * Measurements run one after another (one Pulumi operation at a time), so they do not disturb
 * each other; each has a deadline per operation and a failure in one is reported in its
 * section without stopping the others. Benchmarks report; they assert nothing.
 *
 * Usage: node dist-bench/bench/run.js [wall] [requests] [upgrade] [lookups] [parallel] [simulator] [badarg] [large] [drift] [guards]
 * (no argument = all), or the same names comma-separated in BENCH_ONLY. BENCH_REPEATS (default
 * 2) sets the wall-time rounds per stack size (one more at 50, the size with a target). The
 * "large" section has its own knobs (bench/largeStacks.ts): BENCH_LARGE_SIZES, BENCH_LARGE_KINDS,
 * BENCH_LARGE_FAULTS. The "drift" section too (bench/drift.ts): BENCH_DRIFT_STACKS, BENCH_DRIFT_RESOURCES,
 * BENCH_DRIFT_PARALLEL.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { pulumiRoot } from "../tests/integration/harness";
import { badArgumentSection } from "./badArgument";
import { driftSection } from "./drift";
import { errorText, progress, ROOT, timed } from "./common";
import { runUpgrade, UPGRADE_SIM_SECONDS, type UpgradeRun } from "./k8sUpgrade";
import { measureLargeStacks } from "./largeStacks";
import { largeStacksSection } from "./largeStacksReport";
import { lookupsSection } from "./lookups";
import type { OperationLog } from "./operations";
import { parallelismSection } from "./parallelism";
import { pollingSection } from "./polling";
import { benchSettings, failedSection, recordFigures, renderReport, type Section } from "./report";
import { measureStorageEventRequests, requestsSection } from "./requests";
import { simulatorStartSection } from "./simulatorStart";
import { stateSizeSection, type ClassStateSize } from "./stateSize";
import { upgradeGuardsSection } from "./upgradeGuards";
import { measureWallTime, wallTimeSection } from "./wallTime";

const ALL = ["wall", "requests", "upgrade", "lookups", "parallel", "simulator", "badarg", "large", "drift", "guards"] as const;
type Part = (typeof ALL)[number];

/** Real seconds an upgrade task should take in the two polling runs. */
const UPGRADE_SECONDS = [5, 20];

function cliVersion(): string {
  try {
    return execFileSync(path.join(pulumiRoot(), "bin", "pulumi"), ["version"], { encoding: "utf8", env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" } }).trim();
  } catch (err) {
    return `unknown (${errorText(err)})`;
  }
}

function environment(started: number[], ended: number[]): string[] {
  const sdk = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;
  return [
    `Node ${process.version}, Pulumi CLI ${cliVersion()}, @pulumi/pulumi ${sdk}, ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? "unknown"})`,
    `Load average (1 min) at start ${started[0]?.toFixed(2)}, at end ${ended[0]?.toFixed(2)}: other work on the machine inflates and scatters the wall times.`,
    "Every figure comes from real Pulumi operations (Automation API, temporary file:// backend) against in-process simulators on 127.0.0.1.",
  ];
}

async function main(): Promise<void> {
  const asked = [...process.argv.slice(2), ...(process.env.BENCH_ONLY ?? "").split(",").map((s) => s.trim())];
  const wanted = new Set<Part>(asked.filter((a) => (ALL as readonly string[]).includes(a)) as Part[]);
  const parts = wanted.size ? wanted : new Set<Part>(ALL);
  const repeats = Math.max(1, Number(process.env.BENCH_REPEATS ?? 2) || 2);
  process.env.CLOUDPLATFORM_PULUMI_ROOT ??= pulumiRoot();
  const startedAt = new Date();
  const startLoad = os.loadavg();
  const t0 = Date.now();

  const sections = new Map<number, Section>();
  const stateSizes: ClassStateSize[] = [];
  const stateErrors: string[] = [];
  const operations: OperationLog[] = [];
  const requestErrors: string[] = [];

  const section = async (n: number, title: string, method: string, work: () => Promise<Section | undefined>): Promise<void> => {
    progress(`section ${n}: ${title}`);
    try {
      const { ms, result } = await timed(work);
      if (result) sections.set(n, { ...result, elapsedMs: ms });
    } catch (err) {
      progress(`section ${n} failed: ${errorText(err)}`);
      sections.set(n, failedSection(title, method, errorText(err)));
    }
  };

  if (parts.has("wall")) {
    await section(2, "2. Preview and up wall time against a no-op baseline", "", async () => {
      const r = await measureWallTime({ sizes: [1, 10, 50], repeatsFor: (n) => (n === 50 ? repeats + 1 : repeats), stateSizeAt: 10 });
      stateSizes.push(...r.stateSizes);
      stateErrors.push(...r.stateErrors);
      operations.push(...r.operations);
      return wallTimeSection(r);
    });
  }
  if (parts.has("requests")) {
    await section(3, "3. API requests per operation", "", async () => {
      const r = await measureStorageEventRequests();
      operations.push(...r.operations);
      requestErrors.push(...r.errors);
      return undefined; // rendered below, with the upgrade operations
    });
  }
  const upgradeRuns: UpgradeRun[] = [];
  if (parts.has("upgrade")) {
    await section(4, "4. Task polling of an upgrade", "", async () => {
      for (const [i, seconds] of UPGRADE_SECONDS.entries()) {
        const run = await runUpgrade(UPGRADE_SIM_SECONDS / seconds, i === 0);
        upgradeRuns.push(run);
        if (run.upgrade) operations.push(run.upgrade, ...run.others);
        if (run.stateSize) stateSizes.push(run.stateSize);
        requestErrors.push(...run.errors.map((e) => `upgrade at ${seconds} s: ${e}`));
      }
      return pollingSection(upgradeRuns);
    });
  }
  if (parts.has("lookups")) await section(5, "5. Lookups in one program run", "", lookupsSection);
  if (parts.has("parallel")) await section(6, "6. Parallelism under latency", "", parallelismSection);
  if (parts.has("simulator")) await section(7, "7. Simulator CLI start", "", simulatorStartSection);
  if (parts.has("badarg")) await section(8, "8. Bad lookup argument: time to fail a preview", "", badArgumentSection);
  if (parts.has("large")) await section(9, "9. Large stacks", "", async () => largeStacksSection(await measureLargeStacks()));
  if (parts.has("drift")) await section(10, "10. Drift reports", "", driftSection);
  if (parts.has("guards")) await section(11, "11. Upgrade guards: quota check, health, soak", "", upgradeGuardsSection);

  if (parts.has("wall") || parts.has("upgrade")) sections.set(1, stateSizeSection(stateSizes, stateErrors));
  if (parts.has("requests") || parts.has("upgrade") || parts.has("wall")) {
    const order = (label: string) => (label.startsWith("StorageEvent") ? 0 : 1);
    const sorted = operations.slice().sort((a, b) => order(a.label) - order(b.label));
    const s = requestsSection(sorted, requestErrors);
    sections.set(3, { ...s, elapsedMs: sections.get(3)?.elapsedMs });
  }

  const ordered = [...sections.entries()].sort(([a], [b]) => a - b).map(([, s]) => s);
  const meta = { started: startedAt, elapsedMs: Date.now() - t0, environment: environment(startLoad, os.loadavg()) };
  const report = renderReport(meta, ordered);
  const file = path.join(ROOT, "bench", "report.md");
  fs.writeFileSync(file, report + "\n");
  recordFigures(path.join(ROOT, "bench", "README.md"), { ...meta, settings: benchSettings() }, ordered);
  process.stdout.write(report + "\n");
  progress(`report written to ${path.relative(process.cwd(), file) || file}`);
}

main().then(
  // Pulumi's runtime keeps handles open after inline programs; the report is done, so leave.
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
