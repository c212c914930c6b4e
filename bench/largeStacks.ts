/**
 * Measurement 9: large stacks. N StorageEvents (default N = 10, 100, 1000) on the dynamic path
 * and through the plugin, beside N no-op dynamic resources, through up, a no-change preview,
 * refresh, an update of every limit and destroy: wall time, ratio to the baseline, requests by
 * kind, bytes received from the API, and the provider process's peak RSS. Then, at the largest
 * size, an up and destroy with 100 ms latency on every request and recurring 429 bursts.
 *
 * Knobs: `BENCH_LARGE_SIZES` (comma list, default `10,100,1000`), `BENCH_LARGE_KINDS` (any of
 * `baseline,event,plugin`), `BENCH_LARGE_FAULTS=0` skips the fault run. Targets (from the
 * issue) are reported as met or missed, never failed.
 */
import * as path from "path";
import * as fs from "fs";
import type { Stack } from "@pulumi/pulumi/automation";
import type { TestStack } from "../tests/integration/harness";
import { pluginPathDir } from "../tests/integration/pluginSupport";
import { benchStack, countKinds, errorText, formatCounts, opOptions, progress, secs, startSim, timed, type RequestLogEntry, type Sim } from "./common";
import { noopProgram, pluginStorageEventProgram, storageEventProgram } from "./programs";
import { PROVIDER_COMMANDS, samplePeakRss } from "./providerRss";
import type { Section, Verdict } from "./report";
import { measureStateSize, type ClassStateSize } from "./stateSize";

/** The no-op baseline, StorageEvents on the dynamic path, StorageEvents through the plugin. */
export type LargeKind = "baseline" | "event" | "plugin";
/** The operations measured on every stack, in order. */
export const LARGE_OPERATIONS = ["up", "preview (no change)", "refresh", "update every limit", "destroy"] as const;
type Operation = (typeof LARGE_OPERATIONS)[number];

/** One operation on one stack. */
export interface LargeSample {
  kind: LargeKind;
  n: number;
  operation: Operation;
  ms: number;
  requests: RequestLogEntry[];
  peakRssBytes: number | undefined;
  error?: string;
}

/** The fault run: an up and destroy under latency and 429 bursts. */
export interface FaultRun {
  n: number;
  upMs?: number;
  destroyMs?: number;
  requests: number;
  rateLimited: number;
  error?: string;
}

/** Everything the section measured. */
export interface LargeStacksResult {
  sizes: number[];
  kinds: LargeKind[];
  samples: LargeSample[];
  /** State bytes per resource after the up, by kind and size. */
  stateSizes: Array<{ kind: LargeKind; n: number; size: ClassStateSize }>;
  fault?: FaultRun;
}

const LABEL: Record<LargeKind, string> = { baseline: "No-op baseline", event: "StorageEvent (dynamic)", plugin: "StorageEvent (plugin)" };
const EVENT_LIST = "event list (GET)";

function envList(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback).split(",").map((s) => s.trim()).filter(Boolean);
}

/** Sizes and kinds from the environment knobs. */
export function largeStackSettings(): { sizes: number[]; kinds: LargeKind[]; faults: boolean } {
  const sizes = envList("BENCH_LARGE_SIZES", "10,100,1000").map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const kinds = envList("BENCH_LARGE_KINDS", "baseline,event,plugin").filter((k): k is LargeKind => k === "baseline" || k === "event" || k === "plugin");
  return { sizes, kinds, faults: process.env.BENCH_LARGE_FAULTS !== "0" };
}

/** Runs the stacks (one kind after another at each size; each stack is destroyed by its last operation). */
export async function measureLargeStacks(): Promise<LargeStacksResult> {
  const { sizes, kinds, faults } = largeStackSettings();
  const sim = await startSim();
  const pathDir = pluginPathDir();
  const pluginEnv = { PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}` };
  const result: LargeStacksResult = { sizes, kinds, samples: [], stateSizes: [] };
  try {
    for (const n of sizes) {
      for (const kind of kinds) {
        let limit = 1_000_000;
        const program =
          kind === "baseline" ? noopProgram(n, () => String(limit)) : kind === "event" ? storageEventProgram(n, `large-${n}`, () => limit) : pluginStorageEventProgram(n, `large-plugin-${n}`, () => limit);
        let t: TestStack | undefined;
        try {
          t = await benchStack(program, sim.sim, kind === "plugin" ? pluginEnv : undefined);
          const stack: Stack = t.stack;
          const home = t.envVars.PULUMI_HOME ?? "";
          const command = kind === "plugin" ? PROVIDER_COMMANDS.plugin : PROVIDER_COMMANDS.dynamic;
          for (const operation of LARGE_OPERATIONS) {
            if (operation === "update every limit") limit += 1;
            const sample = await measureOperation(sim, home, command, kind, n, operation, () => run(stack, operation));
            result.samples.push(sample);
            progress(`large stacks: ${kind} x${n} ${operation}: ${secs(sample.ms)}${sample.error ? ` ERROR ${sample.error}` : ""}`);
            if (sample.error) break;
            if (operation === "up") {
              const size = await measureStateSize(stack, kind === "baseline" ? "Noop" : "StorageEvent", LABEL[kind]).catch(() => undefined);
              if (size) result.stateSizes.push({ kind, n, size });
            }
          }
        } catch (err) {
          progress(`large stacks: ${kind} x${n} failed: ${errorText(err)}`);
          result.samples.push({ kind, n, operation: "up", ms: 0, requests: [], peakRssBytes: undefined, error: errorText(err) });
        } finally {
          await t?.cleanup().catch((err) => progress(`cleanup failed: ${errorText(err)}`));
        }
      }
    }
    const largest = Math.max(...sizes);
    if (faults && kinds.includes("event") && Number.isFinite(largest)) result.fault = await faultRun(sim, largest);
  } finally {
    await sim.sim.close();
    fs.rmSync(pathDir, { recursive: true, force: true });
  }
  return result;
}

async function run(stack: Stack, operation: Operation): Promise<void> {
  const check = (what: string, r: { summary: { result?: string } }) => {
    if (r.summary.result !== "succeeded") throw new Error(`${what} ${r.summary.result ?? "failed"}`);
  };
  switch (operation) {
    case "up":
    case "update every limit":
      check(operation, await stack.up(opOptions({ signal: AbortSignal.timeout(1_800_000) })));
      return;
    case "preview (no change)":
      await stack.preview(opOptions({ signal: AbortSignal.timeout(1_800_000), expectNoChanges: true }));
      return;
    case "refresh":
      check(operation, await stack.refresh(opOptions({ signal: AbortSignal.timeout(1_800_000) })));
      return;
    case "destroy":
      check(operation, await stack.destroy(opOptions({ signal: AbortSignal.timeout(1_800_000) })));
      return;
  }
}

async function measureOperation(
  sim: Sim,
  pulumiHome: string,
  command: RegExp,
  kind: LargeKind,
  n: number,
  operation: Operation,
  work: () => Promise<void>,
): Promise<LargeSample> {
  await sim.clearLog();
  const rss = samplePeakRss(pulumiHome, command);
  let error: string | undefined;
  const { ms } = await timed(() => work().catch((err: unknown) => void (error = errorText(err))));
  const peakRssBytes = rss.stop();
  return { kind, n, operation, ms, requests: sim.log().slice(), peakRssBytes, ...(error ? { error } : {}) };
}

/** An up and destroy of `n` events with 100 ms latency and a 429 burst every 200 requests. */
async function faultRun(sim: Sim, n: number): Promise<FaultRun> {
  const out: FaultRun = { n, requests: 0, rateLimited: 0 };
  let t: TestStack | undefined;
  try {
    await sim.clearLog();
    await sim.admin("POST", "/__admin/faults", { latencyMs: 100, burst429: { count: 5, retryAfterSeconds: 1, everyRequests: 200 }, seed: 21 });
    t = await benchStack(storageEventProgram(n, `large-faults-${n}`), sim.sim);
    const stack = t.stack;
    const up = await timed(() => stack.up(opOptions({ signal: AbortSignal.timeout(1_800_000) })));
    if (up.result.summary.result !== "succeeded") throw new Error(`up ${up.result.summary.result}`);
    out.upMs = up.ms;
    const destroy = await timed(() => stack.destroy(opOptions({ signal: AbortSignal.timeout(1_800_000) })));
    out.destroyMs = destroy.ms;
    progress(`large stacks: faults x${n}: up ${secs(up.ms)}, destroy ${secs(destroy.ms)}`);
  } catch (err) {
    out.error = errorText(err);
    progress(`large stacks: faults x${n} failed: ${out.error}`);
  } finally {
    const log = sim.log();
    out.requests = log.length;
    out.rateLimited = log.filter((r) => r.status === 429).length;
    await sim.admin("DELETE", "/__admin/faults").catch(() => undefined);
    await t?.cleanup().catch((err) => progress(`cleanup failed: ${errorText(err)}`));
  }
  return out;
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? "-" : `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function received(requests: readonly RequestLogEntry[]): number {
  return requests.reduce((sum, r) => sum + (r.responseBytes ?? 0), 0);
}

/** The report section. */
export function largeStacksSection(r: LargeStacksResult): Section {
  const section: Section = {
    title: "9. Large stacks",
    method:
      `N StorageEvents (N = ${r.sizes.join(", ")}) on the dynamic path and through the plugin, beside N no-op dynamic resources, each stack through up, a no-change preview, refresh, an update of every limit and destroy, one operation at a time. ` +
      "Wall time of the Automation API call; ratio to the baseline's same operation; requests by kind and bytes of response bodies from the simulator's request log; peak RSS (`VmHWM`) of the provider process (the dynamic-provider host, or the plugin), sampled from /proc every 200 ms. One sample each: the figures scatter with the machine's load.",
    tables: [{ headers: ["N", "Operation", "Kind", "Wall time", "Ratio to baseline", "Requests (by kind)", "Bytes received", "Provider peak RSS"], rows: [] }],
    notes: [],
    targets: [],
  };
  const find = (kind: LargeKind, n: number, op: Operation) => r.samples.find((s) => s.kind === kind && s.n === n && s.operation === op);
  for (const n of r.sizes) {
    for (const op of LARGE_OPERATIONS) {
      for (const kind of r.kinds) {
        const s = find(kind, n, op);
        if (!s) continue;
        const base = find("baseline", n, op);
        const ratio = kind !== "baseline" && base && !base.error && !s.error && base.ms > 0 ? `${(s.ms / base.ms).toFixed(2)}x` : "-";
        section.tables[0]!.rows.push([
          String(n),
          op,
          LABEL[kind],
          s.error ? `ERROR: ${s.error}` : secs(s.ms),
          ratio,
          s.requests.length ? `${s.requests.length}: ${formatCounts(countKinds(s.requests))}` : "none",
          kb(received(s.requests)),
          mb(s.peakRssBytes),
        ]);
      }
    }
  }

  if (r.stateSizes.length) {
    section.tables.push({
      headers: ["N", "Kind", "State bytes per resource", "of which the serialized provider (twice)"],
      rows: r.stateSizes.map(({ kind, n, size }) => [
        String(n),
        LABEL[kind],
        String(size.stateBytesPerResource),
        size.providerBytes ? String(size.stateBytesPerResource - size.stateBytesWithoutProvider) : "none",
      ]),
    });
  }

  const target = (text: string, verdict: Verdict, why?: string) => section.targets.push({ target: text, verdict, ...(why ? { why } : {}) });
  for (const kind of ["event", "plugin"] as const) {
    if (!r.kinds.includes(kind)) continue;
    for (const n of r.sizes) {
      const refresh = find(kind, n, "refresh");
      if (refresh && !refresh.error) {
        const lists = countKinds(refresh.requests).get(EVENT_LIST) ?? 0;
        target(`${LABEL[kind]}: event-list requests per refresh of ${n} <= 2`, lists <= 2 ? "OK" : "MISSED", `${lists} lists`);
      }
      const up = find(kind, n, "up");
      if (up && !up.error) {
        const lists = countKinds(up.requests).get(EVENT_LIST) ?? 0;
        const bound = Math.floor(n / 50) + 2;
        target(`${LABEL[kind]}: list requests per up of ${n} creates <= ${bound} (N/50 + 2)`, lists <= bound ? "OK" : "MISSED", `${lists} lists`);
      }
    }
  }
  for (const n of r.sizes.filter((x) => x >= 400)) {
    const up = find("event", n, "up");
    const base = find("baseline", n, "up");
    if (up && base && !up.error && !base.error) {
      const ratio = up.ms / base.ms;
      target(`dynamic up of ${n} within 1.1x of the baseline`, ratio <= 1.1 ? "OK" : "MISSED", `${ratio.toFixed(2)}x (${secs(up.ms)} vs ${secs(base.ms)})`);
    }
  }
  for (const kind of ["event", "plugin"] as const) {
    const at1000 = r.samples.filter((s) => s.kind === kind && s.n >= 1000 && s.peakRssBytes !== undefined);
    if (at1000.length) {
      const peak = Math.max(...at1000.map((s) => s.peakRssBytes as number));
      target(`${LABEL[kind]}: provider peak RSS at 1000 < 200 MB`, peak < 200 * 1024 * 1024 ? "OK" : "MISSED", mb(peak));
    }
  }
  if (r.fault) {
    const f = r.fault;
    const ok = !f.error && f.upMs !== undefined && f.destroyMs !== undefined;
    target(
      `${f.n} events with 100 ms latency and 429 bursts complete with no error`,
      ok ? "OK" : "MISSED",
      ok ? `up ${secs(f.upMs ?? 0)}, destroy ${secs(f.destroyMs ?? 0)}, ${f.requests} requests, ${f.rateLimited} answered 429` : f.error,
    );
  }
  for (const s of r.samples.filter((x) => x.error)) section.notes.push(`ERROR ${LABEL[s.kind]} x${s.n} ${s.operation}: ${s.error}`);
  return section;
}
