/**
 * Helpers of the lookup unit tests: a simulator with a long unique key, a lookup environment
 * pointing at it, the seed, and request-log filters.
 */
import { randomBytes } from "crypto";
import * as path from "path";
import * as fs from "fs";
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../../simulator";
import { LookupCache } from "../../../provider/lookups/cache";
import type { ClientOverrides, LookupEnvironment } from "../../../provider/lookups/runtime";

/** A key unlike any text a message could contain by chance. */
export function newKey(): string {
  return `cpk_${randomBytes(20).toString("hex")}`;
}

/** Starts a simulator with a fresh unique key. */
export function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ apiKey: newKey(), ...options });
}

/** A lookup environment for `sim` with its own fresh cache. */
export function envFor(sim: RunningSimulator, clientOptions: ClientOverrides = {}, cache = new LookupCache()): LookupEnvironment {
  return { settings: { baseUrl: sim.url, apiKey: sim.apiKey }, cache, clientOptions };
}

/** Requests whose path starts with `prefix`. */
export function requestsTo(sim: RunningSimulator, prefix: string) {
  return sim.requests().filter((r) => r.path.startsWith(prefix));
}

/** The default seed, parsed (expected values are computed from it, not hard-coded twice). */
export function seed(): any {
  return JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../simulator/seed/default.json"), "utf8"));
}

/** Expected reseller rows: amounts of `clients` summed per date in `[from, to)`, dates ascending. */
export function expectedTotals(metric: string, clients: string[], from: string, to: string): { date: string; amount: number }[] {
  const billing = seed().billing as Record<string, Record<string, Record<string, number>>>;
  const byDate = new Map<string, number>();
  for (const c of clients) {
    for (const [date, amount] of Object.entries(billing[c]?.[metric] ?? {})) {
      if (date >= from && date < to) byDate.set(date, (byDate.get(date) ?? 0) + amount);
    }
  }
  return [...byDate.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, amount]) => ({ date, amount }));
}
