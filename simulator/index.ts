/**
 * Public entry point of the simulator: `startSimulator(options)`.
 *
 * The simulator is a product feature (users run stacks offline against it) and the backbone of
 * the test suites, so its surface is small and stable (CONTRACT.md "Starting it"). It is written
 * from the API reference and the known behaviour of the live API only (CONTRACT.md) and imports
 * nothing from `provider/`, so it cannot share the client's mistakes.
 */
import * as http from "http";
import { randomBytes } from "crypto";
import { Clock } from "./clock";
import { ANSWER_SHAPERS } from "./answers";
import { parseDialect, type SimulatorDialect } from "./dialect";
import { SlidingWindowLimiter } from "./routes/dns";
import { registerK8sTaskHooks } from "./routes/k8s";
import { parseResellerPathsServed, type ResellerPathsServed } from "./resellerPaths";
import { FaultController } from "./faults";
import { ListShifts } from "./listShifts";
import { MalformedRules } from "./malformed";
import { RequestLog, type InFlightRequest, type RequestLogEntry } from "./requestLog";
import { createHandler, listen, type ServerContext } from "./server";
import { loadSeed, SimState } from "./state";
import { StateStore } from "./stateStore";
import { TaskEngine } from "./tasks";
import { UnservedEndpoints } from "./unserved";

/** Options of `startSimulator` (all optional; defaults in CONTRACT.md). */
export interface SimulatorOptions {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Token with full rights; default a random token. */
  apiKey?: string;
  /** Token that may only read (writes get 403); default a random token. */
  readOnlyApiKey?: string;
  /** Seed: path to a JSON file or an object; default `simulator/seed/default.json`. */
  seed?: string | object;
  /** Simulated seconds per real second (default 1); 10 runs tasks ten times faster. */
  timeScale?: number;
  /** State file: loaded when present (instead of the seed), written after every change. */
  stateFile?: string;
  /** Rate limit of the delegation-status endpoint; default 5 requests per 1 second. */
  delegationRateLimit?: { requests: number; perSeconds: number };
  /**
   * Seed of injected 503s, resets and malformed answers when the admin API gives none (default: a random
   * seed per fault configuration, reported by the admin API). The same seed replays the same faults.
   */
  faultSeed?: number;
  /** One line per request when a function is given; false or absent = silent. */
  log?: false | ((line: string) => void);
  /**
   * Source of real time in epoch ms (default `Date.now`). Tests inject a fake clock to step
   * tasks and the rate limit deterministically instead of sleeping.
   */
  now?: () => number;
  /**
   * How answers are shaped (CONTRACT.md "Dialects"): `"regular"` (default), the most regular
   * shapes the spec allows, or `"public-api"`, every shape the platform's public material
   * allows (fields omitted, empty lists as null, older field names, page caps, unknown fields
   * and values), so clients can be proved against the live API's variety offline.
   * `POST /__admin/dialect` changes it at run time; a reset returns to this value.
   */
  dialect?: SimulatorDialect;
  /**
   * Which WAAP reseller paths are served (CONTRACT.md "Reseller paths"): `"both"` (default), the
   * public OpenAPI's `/waap/v1/prebilling/total/{metric}` and `/waap/ping`, and the spec's
   * `/waap/reseller/...`; `"public"` or `"spec"` serves only that set, the other answering 404
   * as an unknown path does, so a client's choice between them is tested offline.
   */
  resellerPaths?: ResellerPathsServed;
}

/** A running simulator. */
export interface RunningSimulator {
  /** Base URL, `http://127.0.0.1:<port>` without a trailing slash. */
  url: string;
  /** Bound port. */
  port: number;
  /** Full-rights token. */
  apiKey: string;
  /** Read-only token. */
  readOnlyApiKey: string;
  /** The request log (same items as `GET /__admin/requests`). */
  requests(): RequestLogEntry[];
  /** Requests received and not yet answered, `held` while injected latency holds them (same as `inFlight` of `GET /__admin/requests`). */
  inFlight(): InFlightRequest[];
  /** The live state (read-only use; for tests and debugging). */
  state(): SimState;
  /** Back to the seed, log and faults cleared (same as `POST /__admin/reset`). */
  reset(): void;
  /** Stops listening, drops open connections and stops timers. */
  close(): Promise<void>;
}

function randomToken(): string {
  return randomBytes(24).toString("hex");
}

/** The running simulator's pieces, wired together; `reset` returns each to its start. */
function assemble(options: SimulatorOptions): ServerContext {
  const startDialect = parseDialect(options.dialect ?? "regular", "dialect option");
  const resellerPaths = parseResellerPathsServed(options.resellerPaths ?? "both", "resellerPaths option");
  const clock = new Clock(options.timeScale ?? 1, options.now ?? Date.now);
  const store = new StateStore(loadSeed(options.seed), options.stateFile);
  const tasks = new TaskEngine(store, clock);
  registerK8sTaskHooks(tasks);
  const rate = options.delegationRateLimit ?? { requests: 5, perSeconds: 1 };
  const limiter = new SlidingWindowLimiter(rate.requests, rate.perSeconds, () => clock.now());
  const sim: ServerContext = {
    store,
    clock,
    tasks,
    delegationLimiter: limiter,
    requestLog: new RequestLog(),
    faults: new FaultController(options.faultSeed),
    malformed: new MalformedRules(options.faultSeed),
    unserved: new UnservedEndpoints(),
    listShifts: new ListShifts(),
    answers: ANSWER_SHAPERS[startDialect],
    resellerPaths,
    reset() {
      store.reset();
      sim.answers = ANSWER_SHAPERS[startDialect];
      for (const part of [sim.requestLog, sim.faults, sim.malformed, sim.unserved, sim.listShifts, limiter]) part.clear();
      tasks.schedule();
    },
  };
  return sim;
}

/**
 * Starts a simulator on 127.0.0.1 and resolves once it is listening: the port, hence `url`, is
 * known only then.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = assemble(options);
  const apiKey = options.apiKey ?? randomToken();
  const readOnlyApiKey = options.readOnlyApiKey ?? randomToken();
  if (apiKey === readOnlyApiKey) throw new Error("apiKey and readOnlyApiKey must differ");
  const log = options.log ? options.log : undefined;
  const server = http.createServer(createHandler(sim, { apiKey, readOnlyApiKey, ...(log ? { log } : {}) }));
  server.keepAliveTimeout = 5000;
  // Effects of tasks that ended while the simulator was down (state file reload).
  sim.tasks.settle();
  const port = await listen(server, options.port ?? 0);
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    apiKey,
    readOnlyApiKey,
    requests: () => sim.requestLog.list(),
    inFlight: () => sim.requestLog.inFlight(),
    state: () => sim.store.state,
    reset: () => sim.reset(),
    close() {
      closed ??= new Promise<void>((resolve) => {
        sim.tasks.close();
        sim.store.flush();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Answer dialects (CONTRACT.md "Dialects"): the type, every value, and the name check. */
export { DIALECTS, isDialect, type SimulatorDialect } from "./dialect";
/** Which WAAP reseller paths a simulator serves (CONTRACT.md "Reseller paths"). */
export { RESELLER_PATHS_SERVED, type ResellerPathsServed } from "./resellerPaths";
/** Types callers need to read the request log and set faults. */
export type { RequestLogEntry } from "./requestLog";
export type { FaultConfig } from "./faults";
/** Malformed-answer modes and rules (`POST /__admin/malformed`). */
export { MALFORMED_MODES, type MalformedMode, type MalformedRule } from "./malformed";
/** A request received and not yet answered (`GET /__admin/requests` `inFlight`). */
export type { InFlightRequest } from "./requestLog";
/** The state shape returned by `state()` and `GET /__admin/state`. */
export type { SimState } from "./state";
