/**
 * Measurement 6: `pulumi up` of 20 StorageEvents against 1, with 200 ms of simulated latency
 * on every API request (POST /__admin/faults {latencyMs: 200}).
 *
 * With the engine creating resources in parallel and the provider not serialising its calls,
 * 20 creates cost little more than one; done one after another they would cost 20 x the
 * latency on top.
 */
import { countKinds, errorText, formatCounts, opOptions, progress, secs, startSim, timed, withStack } from "./common";
import { storageEventProgram } from "./programs";
import type { Section } from "./report";

const LATENCY_MS = 200;
const TARGET = 3;

/** Runs both stacks and returns the section. */
export async function parallelismSection(): Promise<Section> {
  const section: Section = {
    title: "6. Parallelism under latency",
    method: `\`pulumi up\` creating 1 and 20 StorageEvents on fresh stacks while the simulator delays every API request by ${LATENCY_MS} ms. Target: 20 events take under ${TARGET}x the time of 1.`,
    tables: [{ headers: ["Events", "up wall time", "Requests", "By kind", "Serial latency floor", "Ratio to 1 event", "Target", "Result"], rows: [] }],
    notes: [],
    targets: [],
  };
  const sim = await startSim();
  const measured: Array<{ n: number; ms: number; requests: number; kinds: string }> = [];
  try {
    await sim.admin("POST", "/__admin/faults", { latencyMs: LATENCY_MS });
    for (const n of [1, 20]) {
      await withStack(storageEventProgram(n, `parallel-${n}`), sim.sim, async (stack) => {
        await sim.clearLog();
        const up = await timed(() => stack.up(opOptions()));
        if (up.result.summary.result !== "succeeded") throw new Error(`up of ${n} events: ${up.result.summary.result}`);
        const log = sim.log().slice();
        measured.push({ n, ms: up.ms, requests: log.length, kinds: formatCounts(countKinds(log)) });
        progress(`parallelism: ${n} event(s) with ${LATENCY_MS} ms latency: up ${secs(up.ms)}, ${log.length} requests`);
      });
    }
  } catch (err) {
    section.notes.push(`ERROR: ${errorText(err)}`);
    section.targets.push({ target: "parallelism measured", verdict: "ERROR", why: errorText(err) });
  } finally {
    await sim.admin("DELETE", "/__admin/faults").catch(() => undefined);
    await sim.sim.close();
  }
  const one = measured.find((m) => m.n === 1);
  for (const m of measured) {
    const ratio = one ? m.ms / one.ms : undefined;
    const targeted = m.n > 1;
    const verdict = !targeted ? "INFO" : ratio === undefined ? "ERROR" : ratio < TARGET ? "OK" : "MISSED";
    section.tables[0]!.rows.push([
      String(m.n),
      secs(m.ms),
      String(m.requests),
      m.kinds,
      secs(m.requests * LATENCY_MS),
      ratio === undefined ? "-" : `${ratio.toFixed(2)}x`,
      targeted ? `< ${TARGET}x` : "-",
      verdict,
    ]);
    if (targeted) {
      section.targets.push({
        target: `up of ${m.n} events < ${TARGET}x of 1 under ${LATENCY_MS} ms latency`,
        verdict,
        why: ratio === undefined ? "the 1-event run failed" : `${ratio.toFixed(2)}x`,
      });
    }
  }
  section.notes.push("Serial latency floor = requests x latency: the time the API calls alone would take one after another.");
  return section;
}
