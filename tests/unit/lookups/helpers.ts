/**
 * Helpers of the lookup unit tests: a simulator with a long unique key, a lookup environment
 * pointing at it, the seed, fixed seed figures, and request-log filters.
 */
import { newKey } from "../api/helpers";
import * as path from "path";
import * as fs from "fs";
import { startSimulator, type RunningSimulator, type SimulatorOptions } from "../../../simulator";
import { LookupCache } from "../../../provider/lookups/cache";
import type { ClientOverrides, LookupEnvironment } from "../../../provider/lookups/runtime";


/** Starts a simulator with a fresh unique key. */
export function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ apiKey: newKey(), ...options });
}

/**
 * Starts a simulator for this test file and points the SDK lookups' environment fallbacks
 * (`CLOUDPLATFORM_BASE_URL`, `CLOUDPLATFORM_API_KEY`) at it, restoring both afterwards: how
 * tests call the public `getX`/`getXOutput` without a Pulumi config. Call it at the top level
 * of a test file; the returned function gives the running simulator.
 */
export function simulatorViaEnvironment(): () => RunningSimulator {
  let sim: RunningSimulator | undefined;
  const saved = { CLOUDPLATFORM_API_KEY: process.env.CLOUDPLATFORM_API_KEY, CLOUDPLATFORM_BASE_URL: process.env.CLOUDPLATFORM_BASE_URL };
  beforeAll(async () => {
    sim = await start();
    process.env.CLOUDPLATFORM_BASE_URL = sim.url;
    process.env.CLOUDPLATFORM_API_KEY = sim.apiKey;
  });
  afterAll(async () => {
    await sim?.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  return () => {
    if (!sim) throw new Error("simulatorViaEnvironment: the simulator starts in beforeAll; use it inside tests");
    return sim;
  };
}

/** A lookup environment for `sim` with its own fresh cache. */
export function envFor(sim: RunningSimulator, clientOptions: ClientOverrides = {}, cache = new LookupCache()): LookupEnvironment {
  return { settings: { baseUrl: sim.url, apiKey: sim.apiKey }, cache, clientOptions };
}

/** Requests whose path starts with `prefix`. */
export function requestsTo(sim: RunningSimulator, prefix: string) {
  return sim.requests().filter((r) => r.path.startsWith(prefix));
}

/** The default seed, parsed (for lists the tests compare whole: ids, names). */
export function seed(): any {
  return JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../simulator/seed/default.json"), "utf8"));
}

/**
 * Seed figures, written out by hand from `simulator/seed/default.json`: the `requests` metric of
 * clients 101 + 102, per day from 2026-09-01 to 2026-09-14. Fixed numbers, so the reseller tests
 * check the lookup against the seed, not the simulator's summing against a copy of itself.
 */
export const SEED_REQUESTS_101_102 = [
  { date: "2026-09-01", amount: 180970 }, // 85516 + 95454
  { date: "2026-09-02", amount: 149064 },
  { date: "2026-09-03", amount: 227524 },
  { date: "2026-09-04", amount: 275216 },
  { date: "2026-09-05", amount: 120729 },
  { date: "2026-09-06", amount: 114463 },
  { date: "2026-09-07", amount: 91274 },
  { date: "2026-09-08", amount: 186517 },
  { date: "2026-09-09", amount: 255803 },
  { date: "2026-09-10", amount: 318262 },
  { date: "2026-09-11", amount: 287852 },
  { date: "2026-09-12", amount: 173690 },
  { date: "2026-09-13", amount: 216775 },
  { date: "2026-09-14", amount: 237038 },
] as const;

/** Sum of {@link SEED_REQUESTS_101_102}. */
export const SEED_REQUESTS_101_102_TOTAL = 2835177;
