/**
 * The simulator as a test double for users' own tests: one line starts a faithful API inside the
 * test process (or connects to one started by `cloudplatform-simulator`), and the result says how
 * to point a program or the Automation API at it, what it received and how to break it.
 *
 * Why over the admin API: everything a test does to the simulator (read the request log, inject
 * faults, fail a task, reset) goes through the same HTTP calls a Python or Go suite makes, so a
 * test behaves the same against an in-process simulator and a separate process.
 */
import { startSimulator, type FaultConfig, type MalformedMode, type RequestLogEntry, type SimState, type SimulatorOptions } from "../../../simulator";
import defaultSeedJson from "../../../simulator/seed/default.json";
import { CloudPlatformError } from "../../../provider/api/errors";

/**
 * A seed's shape: the current client, projects, regions, clusters, events, ... as in the
 * simulator's state (simulator/CONTRACT.md); the built-in seed leaves out the sections that start
 * empty and carries a `_comment`. Declared from the state's type rather than as the type of the
 * seed's JSON file, so that these declarations compile without `resolveJsonModule`.
 */
export type SimulatorSeed = Omit<SimState, "poolHealth" | "failNext"> & Partial<Pick<SimState, "poolHealth" | "failNext">> & { _comment?: string };

/**
 * A fresh copy of the built-in seed, to change before starting a simulator with it
 * (`seed.clusters[0].version = "v1.29.8"`) instead of writing a whole seed file.
 */
export function defaultSeed(): SimulatorSeed {
  return JSON.parse(JSON.stringify(defaultSeedJson)) as SimulatorSeed;
}

/** Which requests of the log to return: every given field must match. */
export interface RequestFilter {
  /** `GET`, `POST`, ... */
  readonly method?: string;
  /** Exactly this path (without the query string). */
  readonly path?: string;
  /** Paths starting with this, e.g. `/storage/`. */
  readonly pathPrefix?: string;
}

/** One malformed-answer rule (simulator/CONTRACT.md, "Malformed answers"). */
export interface MalformedAnswers {
  /** One mode, or `modes` to draw from. */
  readonly mode?: MalformedMode;
  readonly modes?: readonly MalformedMode[];
  readonly path?: string;
  readonly pathPrefix?: string;
  readonly method?: string;
  /** Let this many matching requests pass first. */
  readonly after?: number;
  /** Spoil only this many matching answers. */
  readonly times?: number;
  /** Spoil matching answers with this seeded probability. */
  readonly rate?: number;
  readonly seed?: number;
}

/** A simulator a test points its program at, reads and breaks. */
export interface TestSimulator {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The key it accepts. */
  readonly apiKey: string;
  /**
   * The environment that points a program at it: for `LocalWorkspace`'s `envVars`, a child
   * process, or `Object.assign(process.env, sim.env)` for lookups run in the test itself.
   */
  readonly env: { readonly CLOUDPLATFORM_BASE_URL: string; readonly CLOUDPLATFORM_API_KEY: string };
  /** The stack config that points a stack at it, the key as a secret: `stack.setAllConfig(sim.stackConfig)`. */
  readonly stackConfig: Readonly<Record<"cloudplatform:baseUrl" | "cloudplatform:apiKey", { value: string; secret?: boolean }>>;
  /** The requests it answered, oldest first (the admin API's own calls are not logged). */
  requests(filter?: RequestFilter): Promise<RequestLogEntry[]>;
  /** Empties the request log. */
  clearRequests(): Promise<void>;
  /** Injects 503s, connection resets, latency or 429 bursts (`POST /__admin/faults`); answers the faults in force. */
  injectFaults(faults: FaultConfig): Promise<FaultConfig>;
  /** Spoils answers: HTML pages, cut JSON, nulls, ... (`POST /__admin/malformed`). */
  injectMalformed(rule: MalformedAnswers): Promise<void>;
  /** The next task of `taskType` (e.g. `upgrade_k8s_cluster`) ends in ERROR with `error`. */
  failNextTask(taskType: string, error?: string): Promise<void>;
  /** Removes every injected fault and malformed-answer rule. */
  clearFaults(): Promise<void>;
  /** Any admin call (simulator/CONTRACT.md, "Admin API"), e.g. `admin("PATCH", "/__admin/clusters/1/76/demo-cluster", { version: "v1.31.2" })`. */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Its whole state: clusters, events, tasks, ... */
  state(): Promise<SimState>;
  /** Back to the seed: state, log and faults. */
  reset(): Promise<void>;
  /** Stops a simulator this process started; one it connected to keeps running. */
  close(): Promise<void>;
}

/** Where a simulator listens and the key it accepts. */
export interface SimulatorAddress {
  readonly url: string;
  readonly apiKey: string;
}

/** One admin call; throws a CloudPlatformError (like the rest of the package) with the method, path, status and the simulator's own message. */
async function adminCall<T>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new CloudPlatformError(`simulator admin ${method} ${path}: ${res.status} ${text}`);
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

/** Whether `entry` matches every field of `filter`. */
function matches(entry: RequestLogEntry, filter: RequestFilter): boolean {
  return (
    (filter.method === undefined || entry.method === filter.method.toUpperCase()) &&
    (filter.path === undefined || entry.path === filter.path) &&
    (filter.pathPrefix === undefined || entry.path.startsWith(filter.pathPrefix))
  );
}

/** The test double over a simulator at `address`; `stop` ends it (absent: it keeps running). */
function testSimulator(address: SimulatorAddress, stop?: () => Promise<void>): TestSimulator {
  const base = address.url.replace(/\/+$/, "");
  const admin = <T>(method: string, path: string, body?: unknown) => adminCall<T>(base, method, path, body);
  return {
    url: base,
    apiKey: address.apiKey,
    env: { CLOUDPLATFORM_BASE_URL: base, CLOUDPLATFORM_API_KEY: address.apiKey },
    stackConfig: { "cloudplatform:baseUrl": { value: base }, "cloudplatform:apiKey": { value: address.apiKey, secret: true } },
    requests: async (filter = {}) => (await admin<{ requests: RequestLogEntry[] }>("GET", "/__admin/requests")).requests.filter((r) => matches(r, filter)),
    clearRequests: () => admin<void>("DELETE", "/__admin/requests"),
    injectFaults: async (faults) => (await admin<{ faults: FaultConfig }>("POST", "/__admin/faults", faults)).faults,
    injectMalformed: async (rule) => void (await admin("POST", "/__admin/malformed", rule)),
    failNextTask: async (taskType, error) => void (await admin("POST", "/__admin/tasks/fail-next", { task_type: taskType, ...(error === undefined ? {} : { error }) })),
    clearFaults: () => admin<void>("DELETE", "/__admin/faults"),
    admin,
    state: () => admin<SimState>("GET", "/__admin/state"),
    reset: async () => void (await admin("POST", "/__admin/reset")),
    close: stop ?? (async () => undefined),
  };
}

/**
 * Starts a simulator inside this process, on a free port of 127.0.0.1, and resolves once it
 * listens. `options.seed` is the seed of your choosing: a JSON file's path or an object (see
 * {@link defaultSeed}); `timeScale` speeds up tasks (an upgrade takes 30 simulated seconds).
 * Stop it with `close()` (in `afterAll`).
 */
export async function startTestSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const sim = await startSimulator(options);
  return testSimulator(sim, () => sim.close());
}

/**
 * The same test double over a simulator running elsewhere (`npx cloudplatform-simulator`, a
 * jest `globalSetup`): `url` and `apiKey` as it printed them (or wrote to its `--ready-file`).
 */
export function connectTestSimulator(address: SimulatorAddress): TestSimulator {
  return testSimulator(address);
}
