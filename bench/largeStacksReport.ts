/**
 * The report section of measurement 9, large stacks (measured by largeStacks.ts): wall time and
 * ratio to the no-op baseline beside the state each resource stores, where the time goes (CPU
 * of the engine against the provider's process, bytes the engine wrote), and the targets.
 *
 * Why CPU beside wall time: on a `file://` backend the engine rewrites the whole checkpoint at
 * every step, so an operation on N resources costs about N x N x (state per resource) bytes of
 * engine work; the CPU split says whether a slow run is that or the provider.
 */
import { countKinds, formatCounts, secs, type RequestLogEntry } from "./common";
import { LABEL, LARGE_OPERATIONS, type LargeKind, type LargeSample, type LargeStacksResult, type Operation } from "./largeStacks";
import type { Section, Verdict } from "./report";

const EVENT_LIST = "event list (GET)";
/** The operations the 0.8x target of the dynamic path applies to, at N >= 1000. */
const RATIO_OPERATIONS: readonly Operation[] = ["up", "update every limit", "destroy"];
const RATIO_TARGET = 0.8;

function mb(bytes: number | undefined): string {
  return bytes === undefined ? "-" : `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function kb(bytes: number | undefined): string {
  if (bytes === undefined) return "-";
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function cpu(seconds: number | undefined): string {
  return seconds === undefined ? "-" : `${seconds.toFixed(1)} s`;
}

function received(requests: readonly RequestLogEntry[]): number {
  return requests.reduce((sum, r) => sum + (r.responseBytes ?? 0), 0);
}

/** The report section. */
export function largeStacksSection(r: LargeStacksResult): Section {
  const section: Section = {
    title: "9. Large stacks",
    method:
      `N StorageEvents (N = ${r.sizes.join(", ")}) on the dynamic path and through the plugin, beside N no-op dynamic resources, each stack through its operations one at a time (up, then any of a no-change preview, refresh and an update of every limit, then destroy). ` +
      "Wall time of the Automation API call; ratio to the baseline's same operation; state bytes per resource (`pulumi stack export`, compact JSON, after the up); requests by kind and bytes of response bodies from the simulator's request log. " +
      "Where the time goes: CPU time (user + system) of the stack's processes by role, sampled from /proc every 100 ms (the engine is the `pulumi` CLI; the provider is the dynamic-provider host or the plugin), of this process (the inline program, the Automation API and the simulator), and the bytes the engine passed to `write` (mostly checkpoints). One sample each: wall times scatter with the machine's load, CPU times much less.",
    tables: [
      { headers: ["N", "Operation", "Kind", "Wall time", "Ratio to baseline", "State per resource", "Requests (by kind)", "Bytes received", "Provider peak RSS"], rows: [] },
      { headers: ["N", "Operation", "Kind", "Wall time", "CPU engine", "CPU provider", "CPU language host + other", "CPU program + simulator", "Engine bytes written"], rows: [] },
    ],
    notes: [],
    targets: [],
  };
  const find = (kind: LargeKind, n: number, op: Operation) => r.samples.find((s) => s.kind === kind && s.n === n && s.operation === op);
  const stateOf = (kind: LargeKind, n: number) => r.stateSizes.find((s) => s.kind === kind && s.n === n);
  const ratio = (s: LargeSample, base: LargeSample | undefined) => (base && !base.error && !s.error && base.ms > 0 ? s.ms / base.ms : undefined);
  for (const n of r.sizes) {
    for (const op of LARGE_OPERATIONS) {
      for (const kind of r.kinds) {
        const s = find(kind, n, op);
        if (!s) continue;
        const x = kind === "baseline" ? undefined : ratio(s, find("baseline", n, op));
        const u = s.usage;
        const wall = s.error ? `ERROR: ${s.error}` : secs(s.ms);
        section.tables[0]!.rows.push([
          String(n),
          op,
          LABEL[kind],
          wall,
          x === undefined ? "-" : `${x.toFixed(2)}x`,
          kb(stateOf(kind, n)?.size.stateBytesPerResource),
          s.requests.length ? `${s.requests.length}: ${formatCounts(countKinds(s.requests))}` : "none",
          kb(received(s.requests)),
          mb(s.peakRssBytes),
        ]);
        section.tables[1]!.rows.push([
          String(n),
          op,
          LABEL[kind],
          wall,
          cpu(u?.engine.cpuSeconds),
          cpu(u?.provider.cpuSeconds),
          cpu(u ? u["language host"].cpuSeconds + u.other.cpuSeconds : undefined),
          cpu(s.benchCpuSeconds),
          kb(u?.engine.writtenBytes),
        ]);
      }
    }
  }

  if (r.stateSizes.length) {
    section.tables.push({
      headers: ["N", "Kind", "State bytes per resource", "of which the serialized provider (twice)", "Checkpoint after the up"],
      rows: r.stateSizes.map(({ kind, n, size, checkpointBytes }) => [
        String(n),
        LABEL[kind],
        String(size.stateBytesPerResource),
        size.providerBytes ? String(size.stateBytesPerResource - size.stateBytesWithoutProvider) : "none",
        kb(checkpointBytes),
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
  for (const n of r.sizes.filter((x) => x >= 1000)) {
    for (const op of RATIO_OPERATIONS) {
      const s = find("event", n, op);
      const base = find("baseline", n, op);
      const x = s ? ratio(s, base) : undefined;
      if (s && base && x !== undefined) {
        target(`dynamic ${op} of ${n} within ${RATIO_TARGET}x of the baseline`, x <= RATIO_TARGET ? "OK" : "MISSED", `${x.toFixed(2)}x (${secs(s.ms)} vs ${secs(base.ms)})`);
      }
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
