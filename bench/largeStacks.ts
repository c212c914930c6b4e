/**
 * Measurement 9: large stacks. N StorageEvents (default N = 10, 100, 1000) on the dynamic path
 * and through the plugin, beside N no-op dynamic resources, through up, a no-change preview,
 * refresh, an update of every limit and destroy: wall time, ratio to the baseline, requests by
 * kind, bytes received from the API, state bytes per resource, and where the time goes: CPU
 * time of the engine, the provider and the bench process (program and simulator), the bytes the
 * engine wrote and the checkpoint's size. Then, at the largest size, an up and destroy with
 * 100 ms latency on every request and recurring 429 bursts.
 *
 * Knobs: `BENCH_LARGE_SIZES` (comma list, default `10,100,1000`), `BENCH_LARGE_KINDS` (any of
 * `baseline,event,plugin`), `BENCH_LARGE_OPERATIONS` (any of `up,preview,refresh,update,destroy`;
 * `up` and `destroy` always run), `BENCH_LARGE_FAULTS=0` skips the fault run. Targets (from the
 * issues) are reported as met or missed, never failed; the section is rendered by
 * largeStacksReport.ts.
 */
import * as path from "path";
import * as fs from "fs";
import type { Stack } from "@pulumi/pulumi/automation";
import type { TestStack } from "../tests/integration/harness";
import { pluginPathDir } from "../tests/integration/pluginSupport";
import { benchStack, errorText, opOptions, progress, secs, startSim, timed, type RequestLogEntry, type Sim } from "./common";
import { noopProgram, pluginStorageEventProgram, storageEventProgram } from "./programs";
import { sampleProcesses, type ProcessUsage } from "./processUsage";
import { measureStateSize, type ClassStateSize } from "./stateSize";

/** The no-op baseline, StorageEvents on the dynamic path, StorageEvents through the plugin. */
export type LargeKind = "baseline" | "event" | "plugin";
/** The operations measured on every stack, in order. */
export const LARGE_OPERATIONS = ["up", "preview (no change)", "refresh", "update every limit", "destroy"] as const;
export type Operation = (typeof LARGE_OPERATIONS)[number];
/** The short names `BENCH_LARGE_OPERATIONS` takes. */
const OPERATION_KNOBS: Record<string, Operation> = { up: "up", preview: "preview (no change)", refresh: "refresh", update: "update every limit", destroy: "destroy" };

/** One operation on one stack. */
export interface LargeSample {
  kind: LargeKind;
  n: number;
  operation: Operation;
  ms: number;
  requests: RequestLogEntry[];
  /** The provider process's peak RSS (the dynamic-provider host, or the plugin). */
  peakRssBytes: number | undefined;
  /** The stack's Pulumi processes, by role. */
  usage?: ProcessUsage;
  /** CPU seconds of this process: the inline program, the Automation API and the simulator. */
  benchCpuSeconds?: number;
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
  /** State bytes per resource and of the whole checkpoint after the up, by kind and size. */
  stateSizes: Array<{ kind: LargeKind; n: number; size: ClassStateSize; checkpointBytes?: number }>;
  fault?: FaultRun;
}

/** How each kind is named in the report. */
export const LABEL: Record<LargeKind, string> = { baseline: "No-op baseline", event: "StorageEvent (dynamic)", plugin: "StorageEvent (plugin)" };

function envList(name: string, fallback: string): string[] {
  return (process.env[name] ?? fallback).split(",").map((s) => s.trim()).filter(Boolean);
}

/** Sizes, kinds and operations from the environment knobs. */
export function largeStackSettings(): { sizes: number[]; kinds: LargeKind[]; operations: Operation[]; faults: boolean } {
  const sizes = envList("BENCH_LARGE_SIZES", "10,100,1000").map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const kinds = envList("BENCH_LARGE_KINDS", "baseline,event,plugin").filter((k): k is LargeKind => k === "baseline" || k === "event" || k === "plugin");
  const asked = new Set(envList("BENCH_LARGE_OPERATIONS", "up,preview,refresh,update,destroy").map((k) => OPERATION_KNOBS[k]));
  const operations = LARGE_OPERATIONS.filter((op) => op === "up" || op === "destroy" || asked.has(op));
  return { sizes, kinds, operations, faults: process.env.BENCH_LARGE_FAULTS !== "0" };
}

/** Runs the stacks (one kind after another at each size; each stack is destroyed by its last operation). */
export async function measureLargeStacks(): Promise<LargeStacksResult> {
  const { sizes, kinds, operations, faults } = largeStackSettings();
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
          for (const operation of operations) {
            if (operation === "update every limit") limit += 1;
            const sample = await measureOperation(sim, home, kind, n, operation, () => run(stack, operation));
            result.samples.push(sample);
            const cpu = sample.usage ? `, CPU engine ${sample.usage.engine.cpuSeconds.toFixed(1)} s, provider ${sample.usage.provider.cpuSeconds.toFixed(1)} s` : "";
            progress(`large stacks: ${kind} x${n} ${operation}: ${secs(sample.ms)}${cpu}${sample.error ? ` ERROR ${sample.error}` : ""}`);
            if (sample.error) break;
            if (operation === "up") {
              const size = await measureStateSize(stack, kind === "baseline" ? "Noop" : "StorageEvent", LABEL[kind]).catch(() => undefined);
              if (size) result.stateSizes.push({ kind, n, size, checkpointBytes: checkpointBytes(t.backendUrl) });
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

async function measureOperation(sim: Sim, pulumiHome: string, kind: LargeKind, n: number, operation: Operation, work: () => Promise<void>): Promise<LargeSample> {
  await sim.clearLog();
  const processes = sampleProcesses(pulumiHome);
  const cpuBefore = process.cpuUsage();
  let error: string | undefined;
  const { ms } = await timed(() => work().catch((err: unknown) => void (error = errorText(err))));
  const cpu = process.cpuUsage(cpuBefore);
  const usage = processes.stop();
  const benchCpuSeconds = (cpu.user + cpu.system) / 1e6;
  return { kind, n, operation, ms, requests: sim.log().slice(), peakRssBytes: usage.provider.peakRssBytes, usage, benchCpuSeconds, ...(error ? { error } : {}) };
}

/** Bytes of the stack's checkpoint file in a `file://` backend (the one file the engine rewrites at every step). */
function checkpointBytes(backendUrl: string): number | undefined {
  const stacks = path.join(new URL(backendUrl).pathname, ".pulumi", "stacks");
  const files = (fs.readdirSync(stacks, { recursive: true }) as string[]).filter((f) => /\.json(\.gz)?$/.test(f));
  return files.length === 1 ? fs.statSync(path.join(stacks, files[0]!)).size : undefined;
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
