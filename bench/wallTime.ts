/**
 * Measurement 2: `pulumi preview` and `pulumi up` wall time for stacks of 1, 10 and 50
 * StorageEvents against stacks of as many no-op dynamic resources, in the same run.
 *
 * Both kinds go through the same CLI, language host and dynamic-provider process; the ratio
 * is what the StorageEvent provider adds (its `require` of the runtime, configure, check, the
 * API calls). Each round starts from an empty stack state: two previews and an up create N
 * resources, then a destroy empties the stack for the next round. The baseline and the StorageEvent stack
 * alternate, and the fastest sample of each counts (the least disturbed by other load).
 */
import * as fs from "fs";
import * as path from "path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { TestStack } from "../tests/integration/harness";
import { pluginPathDir } from "../tests/integration/pluginSupport";
import { benchStack, errorText, opOptions, progress, secs, startSim, timed } from "./common";
import { noopProgram, pluginStorageEventProgram, storageEventProgram } from "./programs";
import type { Section } from "./report";
import { CREATE_LISTS, type OperationLog } from "./operations";
import { measureStateSize, type ClassStateSize } from "./stateSize";

/** One stack size and kind's samples. */
interface Samples {
  previewMs: number[];
  upMs: number[];
  errors: string[];
}

/** What the wall-time runs measured. */
export interface WallTimeResult {
  sizes: number[];
  samples: Map<string, Samples>;
  stateSizes: ClassStateSize[];
  stateErrors: string[];
  /** Requests of the first StorageEvent preview and up of each size (for section 3). */
  operations: OperationLog[];
}

/** The no-op baseline, StorageEvents on the dynamic path, StorageEvents through the native plugin. */
type Kind = "baseline" | "event" | "plugin";

function median(xs: number[]): number {
  const sorted = xs.slice().sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
const key = (kind: Kind, n: number): string => `${kind}:${n}`;
const RATIO_TARGET = 1.3;

/**
 * Runs the samples. `repeatsFor(n)` says how many samples per stack size; `stateSizeAt` is the
 * size whose state is also measured for section 1.
 */
export async function measureWallTime(options: { sizes: number[]; repeatsFor: (n: number) => number; stateSizeAt: number }): Promise<WallTimeResult> {
  const sim = await startSim();
  const stacks = new Map<string, TestStack>();
  const pathDir = pluginPathDir();
  const pluginEnv = { PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}` };
  const programOf = (kind: Kind, n: number) =>
    kind === "baseline" ? noopProgram(n) : kind === "event" ? storageEventProgram(n, `wall-${n}`) : pluginStorageEventProgram(n, `plugin-${n}`);
  const result: WallTimeResult = { sizes: options.sizes, samples: new Map(), stateSizes: [], stateErrors: [], operations: [] };
  const maxRepeats = Math.max(...options.sizes.map(options.repeatsFor));
  try {
    for (let rep = 0; rep < maxRepeats; rep++) {
      for (const n of options.sizes) {
        if (rep >= options.repeatsFor(n)) continue;
        const kinds: Kind[] = rep % 2 === 0 ? ["baseline", "event", "plugin"] : ["plugin", "event", "baseline"];
        for (const kind of kinds) {
          const k = key(kind, n);
          const samples = result.samples.get(k) ?? { previewMs: [], upMs: [], errors: [] };
          result.samples.set(k, samples);
          try {
            let t = stacks.get(k);
            if (!t) {
              t = await benchStack(programOf(kind, n), sim.sim, kind === "plugin" ? pluginEnv : undefined);
              stacks.set(k, t);
            }
            const stack: Stack = t.stack;
            const logThis = rep === 0 && kind === "event";
            if (logThis) await sim.clearLog();
            const preview = await timed(() => stack.preview(opOptions()));
            const previewLog = sim.log().slice();
            // A second preview of the same (still empty) state: a cheap extra sample.
            const preview2 = await timed(() => stack.preview(opOptions()));
            if (logThis) await sim.clearLog();
            const up = await timed(() => stack.up(opOptions()));
            const upLog = sim.log().slice();
            const created = up.result.summary.resourceChanges?.create ?? 0;
            // The stack resource itself is created by the first up only, hence "at least n".
            if (up.result.summary.result !== "succeeded" || created < n) {
              throw new Error(`up ${up.result.summary.result}: created ${created} resources, expected ${n}`);
            }
            if (logThis) {
              result.operations.push(
                { label: `StorageEvent: preview of ${n} new`, log: previewLog, minimum: {} },
                { label: `StorageEvent: create ${n} (up)`, log: upLog, minimum: { "event POST": n }, why: CREATE_LISTS },
              );
            }
            samples.previewMs.push(preview.ms, preview2.ms);
            samples.upMs.push(up.ms);
            progress(`wall time: ${kind} x${n} (round ${rep + 1}): preview ${secs(preview.ms)} and ${secs(preview2.ms)}, up ${secs(up.ms)}`);
            if (rep === 0 && n === options.stateSizeAt) {
              try {
                const label = { baseline: "Noop", event: "StorageEvent", plugin: "StorageEvent (plugin)" }[kind];
                result.stateSizes.push(await measureStateSize(stack, kind === "baseline" ? "Noop" : "StorageEvent", label));
              } catch (err) {
                result.stateErrors.push(`${kind}: ${errorText(err)}`);
              }
            }
            await stack.destroy(opOptions());
          } catch (err) {
            samples.errors.push(errorText(err));
            progress(`wall time: ${kind} x${n} failed: ${errorText(err)}`);
          }
        }
      }
    }
  } finally {
    for (const t of stacks.values()) await t.cleanup().catch((err) => progress(`cleanup failed: ${errorText(err)}`));
    await sim.sim.close();
    fs.rmSync(pathDir, { recursive: true, force: true });
  }
  return result;
}

/** The report section. */
export function wallTimeSection(r: WallTimeResult): Section {
  const section: Section = {
    title: "2. Preview and up wall time against a no-op baseline",
    method:
      "Wall time of `stack.preview()` and `stack.up()` (Automation API, so each includes the CLI start) creating N resources on an empty stack state; baseline = the same number of no-op dynamic resources whose create returns at once, measured in the same run, alternating with the StorageEvent stacks (the dynamic path, and the native plugin `pulumi-resource-cloudplatform` found on PATH; the target applies to the dynamic path, the plugin's ratio is reported beside it). Each round: two previews, one up, then a destroy (not timed). Fastest sample counts (the least disturbed by other load on the machine); all samples are listed below.",
    tables: [{ headers: ["N", "Operation", "Baseline (no-op)", "StorageEvent", "Ratio", "Target", "Result", "StorageEvent (plugin)", "Plugin ratio"], rows: [] }],
    notes: [],
    targets: [],
  };
  const min = (xs: number[]): number | undefined => (xs.length ? Math.min(...xs) : undefined);
  for (const n of r.sizes) {
    const base = r.samples.get(key("baseline", n));
    const ev = r.samples.get(key("event", n));
    const pl = r.samples.get(key("plugin", n));
    for (const op of ["preview", "up"] as const) {
      const b = min(op === "preview" ? base?.previewMs ?? [] : base?.upMs ?? []);
      const e = min(op === "preview" ? ev?.previewMs ?? [] : ev?.upMs ?? []);
      const ratio = b !== undefined && e !== undefined ? e / b : undefined;
      const p = min(op === "preview" ? pl?.previewMs ?? [] : pl?.upMs ?? []);
      const pluginRatio = b !== undefined && p !== undefined ? p / b : undefined;
      const targeted = n === Math.max(...r.sizes);
      let verdict = "INFO";
      if (ratio === undefined) verdict = "ERROR";
      else if (targeted) verdict = ratio <= RATIO_TARGET ? "OK" : "MISSED";
      section.tables[0]!.rows.push([
        String(n),
        `pulumi ${op}`,
        b === undefined ? "failed" : secs(b),
        e === undefined ? "failed" : secs(e),
        ratio === undefined ? "n/a" : `${ratio.toFixed(2)}x`,
        targeted ? `<= ${RATIO_TARGET}x` : "(none)",
        verdict,
        p === undefined ? "failed" : secs(p),
        pluginRatio === undefined ? "n/a" : `${pluginRatio.toFixed(2)}x`,
      ]);
      if (targeted) {
        const baseAll = op === "preview" ? base?.previewMs ?? [] : base?.upMs ?? [];
        let why = ratio === undefined ? "a run failed (see the section)" : `${ratio.toFixed(2)}x`;
        if (verdict === "MISSED" && e !== undefined && baseAll.length && e <= median(baseAll)) {
          why += `; but the fastest StorageEvent sample (${secs(e)}) is no slower than the baseline's median (${secs(median(baseAll))}): load on the machine rather than a cost of the provider`;
        }
        const created = r.operations.find((o) => o.label === `StorageEvent: create ${n} (up)`);
        if (verdict === "MISSED" && op === "up" && created && created.log.length > n) {
          why += `; the up made ${created.log.length} API requests for ${n} events (${(created.log.length / n).toFixed(1)} per event, see section 3)`;
        }
        section.targets.push({ target: `${op} of ${n} StorageEvents <= ${RATIO_TARGET}x baseline`, verdict: verdict as "OK" | "MISSED" | "ERROR", why });
        if (verdict === "MISSED") section.notes.push(`MISSED ${op} at ${n}: ${why}.`);
      }
    }
  }
  for (const [k, s] of r.samples) {
    const fmt = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(", ") || "-";
    section.notes.push(`Samples ${k.replace(":", " x")}: preview [${fmt(s.previewMs)}] s, up [${fmt(s.upMs)}] s${s.errors.length ? `; errors: ${s.errors.join("; ")}` : ""}`);
  }
  return section;
}
