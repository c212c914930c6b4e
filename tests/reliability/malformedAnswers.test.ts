/**
 * Malformed answers at a seeded rate, round after round, through both lifecycles as the engine
 * drives them (no CLI: each round runs dozens of operations; the CLI runs under malformed
 * answers are tests/integration/malformedAnswerSuite.ts).
 *
 * `FAULT_SEED=<n>` replays a failing run: round r uses seed n + r for its `up` and refresh and
 * n + 1000 + r for its destroy (simulator/CONTRACT.md, "Malformed answers").
 */
import { createClient, type CloudPlatformClient } from "../../provider/api";
import { createK8sClusterUpgradeLifecycle, type K8sClusterUpgradeOutputs } from "../../provider/resources/k8sClusterUpgrade";
import type { LifecycleContext } from "../../provider/resources/lifecycle";
import { isPartialResourceError } from "../../provider/resources/partial";
import { RunState } from "../../provider/resources/runState";
import { storageEvent, type StorageEventInputs, type StorageEventOutputs } from "../../provider/resources/storageEvent";
import { MALFORMED_MODES, startSimulator } from "../../simulator";
import { randomSeed } from "../../simulator/faults";
import { admin, newKey } from "../unit/api/helpers";
import { CLUSTER, count, EVENT_PATH, handled, printSummary, requestLog, TARGET_VERSION, UPGRADE_PATH, type Sim } from "./support";

jest.setTimeout(600_000);

const SEED = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : randomSeed();

let sim: Sim;
const injected: Record<string, number> = {};
let survived = 0;
let runs = 0;
/** The malformed-answer figures of this file (support.ts `Counts`). */
const malformed = { tried: 0, recovered: 0, clearErrors: 0, silentValues: 0, resourcesLost: 0 };

/** A lifecycle context of one run, as the dynamic provider makes it, with the quick write timing of the unit tests. */
const ctxOf = (client: CloudPlatformClient): LifecycleContext => ({
  client: () => client,
  log: () => undefined,
  run: new RunState({ writeTiming: { settleMs: 20, requestTimeoutMs: 1_500, inFlightMarginMs: 50 } }),
  signal: new AbortController().signal,
});

beforeAll(async () => {
  sim = await startSimulator({ apiKey: newKey(), timeScale: 60 });
  // eslint-disable-next-line no-console
  console.log(`malformedAnswers.test: fault seed ${SEED} (rerun with FAULT_SEED=${SEED})`);
});

afterAll(async () => {
  await sim?.close();
  const total = Object.values(injected).reduce((a, b) => a + b, 0);
  count((c) => {
    c.faultRuns += runs;
    c.faultRunsSurvived += survived;
    c.faultsInjected += total;
    for (const [k, v] of Object.entries(injected)) c.faultsByKind[k] = (c.faultsByKind[k] ?? 0) + v;
    c.malformedTried += malformed.tried;
    c.malformedRecovered += malformed.recovered;
    c.malformedClearErrors += malformed.clearErrors;
    c.silentValues += malformed.silentValues;
    c.resourcesLost += malformed.resourcesLost;
  });
  printSummary(
    "malformedAnswers",
    `${total} malformed answers injected (${JSON.stringify(injected)}) over ${runs} rounds, ${survived} converged; ` +
      `recovered ${malformed.recovered}, clear errors ${malformed.clearErrors}, silent values ${malformed.silentValues}, resources lost ${malformed.resourcesLost}`,
  );
});
/**
 * Malformed answers at a seeded rate, round after round: 40% of all answers (every path,
 * every method) come back as an HTML page, a 502 page, JSON cut short, nulls, `{"weird":1}`, an
 * empty or a huge body, while both lifecycles run an `up` (creates, the upgrade), a `refresh`
 * and a `destroy`, as the engine drives them, directly against the simulator. The engine's
 * bookkeeping is emulated: a resource enters the state on success or partial state, leaves it
 * only on a successful delete or a read that says "gone". Each round must show: every failure
 * names the call (no key); every value an operation returned is what the simulator holds
 * (no silent value); nothing on the platform escapes the state and nothing the platform holds
 * is dropped (no resource lost); a clean `up` and `destroy` afterwards converge with each write
 * acted on once. `FAULT_SEED` replays the rounds (round r uses seed + r).
 */
describe("malformed answers at a seeded rate: each round fails clearly or returns true values, loses nothing, and converges", () => {
  /** Every mode but slowBody (each of those waits out a 30 s client timeout; the client's unit tests cover it). */
  const MODES = MALFORMED_MODES.filter((m) => m !== "slowBody");
  const RATE = 0.4;
  const ROUNDS = 20;
  const lifecycle = createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } });
  const CLUSTER_INPUTS = { projectId: 1, regionId: 76, clusterName: CLUSTER, version: TARGET_VERSION, allowMultiStep: false, timeoutMinutes: 10, soakSeconds: 0 };
  const EVENTS: Record<string, StorageEventInputs> = {
    space: { name: "reaching_used_space", storageName: "rounds", bytes: 500 },
    requests: { name: "reaching_used_requests", storageName: "rounds", bucketName: "b", count: 9 },
  };

  /** What the engine would hold for one resource. */
  interface Tracked {
    id: string;
    outs: Record<string, unknown>;
    /** Recorded from partial state: the next up updates it. */
    initFailed: boolean;
  }

  test.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))("round %i", async (round) => {
    await admin(sim, "POST", "/reset");
    const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
    const ctx = ctxOf(client);
    const state = new Map<string, Tracked>();
    const unclear: string[] = [];
    let silent = 0;
    let lost = 0;
    runs++;
    try {
      const liveEvent = (uuid: unknown) => sim.state().storageEvents.find((e) => e.uuid === uuid);
      const liveVersion = () => sim.state().clusters.find((c) => c.name === CLUSTER)?.version;
      /** Whether what an operation returned for `name` is what the simulator holds. */
      const trueValue = (name: string, outs: Record<string, unknown>): boolean => {
        if (name === "cluster") return outs["version"] === liveVersion();
        const live = liveEvent(outs["uuid"]);
        const want = EVENTS[name];
        return live !== undefined && want !== undefined && live.name === want.name && (live.bytes ?? undefined) === outs["bytes"] && (live.count ?? undefined) === outs["count"];
      };
      /** Runs one operation; counts the malformed answers it met as recovered when it succeeded. */
      const operation = async <T>(what: string, op: () => Promise<T>): Promise<T | Error> => {
        const from = sim.requests().at(-1)?.seq ?? 0;
        try {
          const result = await op();
          malformed.recovered += sim.requests().filter((r) => r.seq > from && (MODES as readonly string[]).includes(r.fault ?? "")).length;
          return result;
        } catch (err) {
          const message = String((err as Error).message);
          if (/\b(GET|POST|PUT|DELETE) \/[a-z]/.test(message) && !message.includes(sim.apiKey)) malformed.clearErrors++;
          else unclear.push(`${what}: ${message}`);
          if (isPartialResourceError(err)) return err;
          return err as Error;
        }
      };

      // --- up under malformed answers: the events, then the upgrade.
      await admin(sim, "POST", "/malformed", { modes: MODES, rate: RATE, seed: SEED + round, hugeBytes: 65 * 1024 * 1024 });
      for (const [name, inputs] of Object.entries(EVENTS)) {
        const r = await operation(`create ${name}`, () => storageEvent.create(ctx, inputs));
        if (r instanceof Error) {
          if (isPartialResourceError(r)) state.set(name, { id: r.id, outs: r.properties, initFailed: true });
        } else {
          state.set(name, { id: r.id, outs: r.outs as unknown as Record<string, unknown>, initFailed: false });
          if (!trueValue(name, state.get(name)!.outs)) silent++;
        }
      }
      const up = await operation("create cluster", () => lifecycle.create(ctx, CLUSTER_INPUTS));
      if (up instanceof Error) {
        if (isPartialResourceError(up)) state.set("cluster", { id: up.id, outs: up.properties, initFailed: true });
      } else {
        state.set("cluster", { id: up.id, outs: up.outs as unknown as Record<string, unknown>, initFailed: false });
        if (!trueValue("cluster", state.get("cluster")!.outs)) silent++;
      }

      // --- refresh under malformed answers.
      for (const [name, tracked] of [...state]) {
        const read =
          name === "cluster"
            ? await operation(`read ${name}`, () => lifecycle.read(ctx, tracked.id, tracked.outs as unknown as K8sClusterUpgradeOutputs))
            : await operation(`read ${name}`, () => storageEvent.read(ctx, tracked.id, tracked.outs as unknown as StorageEventOutputs));
        if (read instanceof Error) continue;
        if (read === undefined) {
          // "Gone": only true when the platform no longer holds it.
          const holds = name === "cluster" || sim.state().storageEvents.some((e) => e.name === EVENTS[name]?.name && e.storage_name === "rounds" && (e.bucket_name ?? undefined) === EVENTS[name]?.bucketName);
          if (holds) lost++;
          state.delete(name);
          continue;
        }
        const outs = read.outs as unknown as Record<string, unknown>;
        if (!trueValue(name, outs)) silent++;
        state.set(name, { ...tracked, id: read.id, outs });
      }
      await admin(sim, "DELETE", "/malformed");

      // Nothing on the platform escaped the state.
      for (const e of sim.state().storageEvents) {
        const tracked = [...state.values()].some((t) => t.outs["uuid"] === e.uuid || (t.id.startsWith("pending-create:") && t.outs["name"] === e.name));
        if (!tracked) lost++;
      }

      // --- a clean up converges: updates what failed to initialise, creates what is missing.
      for (const [name, inputs] of Object.entries(EVENTS)) {
        const tracked = state.get(name);
        if (!tracked) {
          const { id, outs } = await storageEvent.create(ctxOf(client), inputs);
          state.set(name, { id, outs: outs as unknown as Record<string, unknown>, initFailed: false });
        } else if (tracked.initFailed) {
          const outs = await storageEvent.update(ctxOf(client), tracked.id, tracked.outs as unknown as StorageEventOutputs, inputs);
          state.set(name, { ...tracked, outs: outs as unknown as Record<string, unknown>, initFailed: false });
        }
        expect(trueValue(name, state.get(name)!.outs)).toBe(true);
      }
      const cluster = state.get("cluster");
      const outs = cluster ? await lifecycle.update(ctxOf(client), cluster.id, cluster.outs as unknown as K8sClusterUpgradeOutputs, CLUSTER_INPUTS) : (await lifecycle.create(ctxOf(client), CLUSTER_INPUTS)).outs;
      state.set("cluster", { id: `1/76/${CLUSTER}`, outs: outs as unknown as Record<string, unknown>, initFailed: false });
      expect(liveVersion()).toBe(TARGET_VERSION);
      expect(sim.state().storageEvents).toHaveLength(2);

      // --- destroy under malformed answers, then a clean destroy.
      await admin(sim, "POST", "/malformed", { modes: MODES, rate: RATE, seed: SEED + 1000 + round, hugeBytes: 65 * 1024 * 1024 });
      for (const [name, tracked] of [...state]) {
        if (name === "cluster") {
          state.delete(name);
          continue;
        }
        const r = await operation(`delete ${name}`, () => storageEvent.delete(ctx, tracked.id, tracked.outs as unknown as StorageEventOutputs));
        if (!(r instanceof Error)) {
          if (sim.state().storageEvents.some((e) => e.uuid === tracked.outs["uuid"])) silent++;
          state.delete(name);
        }
      }
      await admin(sim, "DELETE", "/malformed");
      for (const tracked of state.values()) await storageEvent.delete(ctxOf(client), tracked.id, tracked.outs as unknown as StorageEventOutputs);
      expect(sim.state().storageEvents).toEqual([]);

      // Each write acted on once over the whole round.
      const log = await requestLog(sim);
      expect(handled(log, "POST", EVENT_PATH)).toHaveLength(2);
      expect(handled(log, "DELETE", EVENT_PATH)).toHaveLength(2);
      expect(handled(log, "POST", UPGRADE_PATH)).toHaveLength(1);

      expect(unclear).toEqual([]);
      expect(silent).toBe(0);
      expect(lost).toBe(0);
      survived++;
    } finally {
      const spoilt = (await requestLog(sim)).filter((r) => (MODES as readonly string[]).includes(r.fault ?? ""));
      for (const r of spoilt) injected[String(r.fault)] = (injected[String(r.fault)] ?? 0) + 1;
      malformed.tried += spoilt.length;
      malformed.silentValues += silent;
      malformed.resourcesLost += lost;
    }
  });
});

test("the rounds together tried at least 50 malformed answers, and every round converged with nothing silent or lost", () => {
  const total = Object.values(injected).reduce((a, b) => a + b, 0);
  expect(runs).toBe(20);
  expect(total).toBeGreaterThanOrEqual(50);
  expect(survived).toBe(runs);
  expect(malformed.silentValues).toBe(0);
  expect(malformed.resourcesLost).toBe(0);
});
