/**
 * Measurement 3: API requests per operation, counted by kind from the simulator's request
 * log, next to the minimum the API allows.
 *
 * StorageEvent operations run here on a one-event stack (create, preview unchanged, update of
 * the limit, refresh, destroy); creating 1, 10 and 50 events comes from the wall-time runs and
 * the K8sClusterUpgrade operations from the upgrade runs.
 */
import { countKinds, errorText, formatCounts, opOptions, startSim, withStack } from "./common";
import { CREATE_LISTS, excess, logged, shortfall, TASK_POLL, type OperationLog } from "./operations";
import { storageEventProgram } from "./programs";
import type { Section } from "./report";

/** The StorageEvent lifecycle on one event. */
export async function measureStorageEventRequests(): Promise<{ operations: OperationLog[]; errors: string[] }> {
  const operations: OperationLog[] = [];
  const errors: string[] = [];
  const sim = await startSim();
  let limit = 1_000_000;
  try {
    await withStack(storageEventProgram(1, "requests", () => limit), sim.sim, async (stack) => {
      operations.push({
        label: "StorageEvent: create 1 (up)",
        log: await logged(sim, () => stack.up(opOptions())),
        minimum: { "event POST": 1 },
        why: CREATE_LISTS,
      });
      operations.push({ label: "StorageEvent: preview of the unchanged stack", log: await logged(sim, () => stack.preview(opOptions())), minimum: {} });
      operations.push({ label: "StorageEvent: up of the unchanged stack", log: await logged(sim, () => stack.up(opOptions())), minimum: {} });
      limit = 2_000_000;
      operations.push({ label: "StorageEvent: change the limit (up)", log: await logged(sim, () => stack.up(opOptions())), minimum: { "event PUT": 1 } });
      operations.push({
        label: "StorageEvent: refresh",
        log: await logged(sim, () => stack.refresh(opOptions())),
        minimum: { "event list (GET)": 1 },
        why: "the API has no read by uuid, so refresh lists (one list per event)",
      });
      operations.push({ label: "StorageEvent: destroy", log: await logged(sim, () => stack.destroy(opOptions())), minimum: { "event DELETE": 1 } });
    });
  } catch (err) {
    errors.push(errorText(err));
  } finally {
    await sim.sim.close();
  }
  return { operations, errors };
}

/** The report section from every operation measured. */
export function requestsSection(operations: OperationLog[], errors: string[]): Section {
  const section: Section = {
    title: "3. API requests per operation",
    method:
      "Every request the simulator logged during one Pulumi operation, counted by kind, next to the fewest requests the API allows for that operation. `up` runs without a separate preview (Automation API `--skip-preview`), so check, create and update each run once. Target: nothing beyond the minimum, apart from task polls.",
    tables: [{ headers: ["Operation", "Requests (by kind)", "Minimum the API allows", "Writes", "Beyond the minimum", "Result"], rows: [] }],
    notes: [],
    targets: [],
  };
  const missedLabels: string[] = [];
  const whys = new Map<string, string[]>();
  for (const op of operations) {
    const counts = countKinds(op.log);
    const extra = excess(op);
    const short = shortfall(op);
    const writes = op.log.filter((r) => r.method !== "GET").length;
    const minText = formatCounts(new Map(Object.entries(op.minimum))) + (op.pollsAllowed ? " + task polls" : "") + (op.judgeWritesOnly ? " (0 writes; reads not judged)" : "");
    const verdict = extra.size === 0 ? "OK" : "MISSED";
    if (verdict === "MISSED") missedLabels.push(`${op.label.replace(/^\w+: /, "")}: +${formatCounts(extra)}`);
    section.tables[0]!.rows.push([op.label, `${op.log.length}: ${formatCounts(counts)}`, minText, String(writes), extra.size ? formatCounts(extra) : "-", verdict]);
    if (extra.size) {
      section.notes.push(`MISSED ${op.label}: ${formatCounts(extra)} beyond the minimum.`);
      if (op.why) whys.set(op.why, [...(whys.get(op.why) ?? []), op.label]);
    }
    else if (op.why && op.judgeWritesOnly && counts.size) section.notes.push(`${op.label}: ${op.why}.`);
    if (short.size) section.notes.push(`${op.label}: fewer than the minimum of ${formatCounts(short)} (the operation did not do that step).`);
    const polls = counts.get(TASK_POLL);
    if (polls && op.pollsAllowed) section.notes.push(`${op.label}: ${polls} task polls (see section 4).`);
  }
  for (const [why, labels] of whys) section.notes.push(`Why (${labels.length === 1 ? labels[0] : `${labels.length} operations above`}): ${why}.`);
  section.targets.push({
    target: "no request beyond the minimum plus polls",
    verdict: operations.length === 0 ? "ERROR" : missedLabels.length === 0 ? "OK" : "MISSED",
    why:
      operations.length === 0
        ? "nothing measured"
        : missedLabels.length === 0
          ? `${operations.length} operations at the minimum`
          : `${missedLabels.length} of ${operations.length} operations: ${missedLabels.join("; ")} (see section 3)`,
  });
  for (const e of errors) {
    section.notes.push(`ERROR: ${e}`);
    section.targets.push({ target: "requests measured", verdict: "ERROR", why: e });
  }
  return section;
}
