/**
 * Shared pieces of the benchmarks: simulators, stacks, timing, the request log, report rows.
 *
 * Why here and not in the test harness: the harness (tests/integration/harness.ts) creates the
 * stacks and is reused as is; what the benchmarks add is measurement (timing, request-kind
 * counts, deadlines) and a fix-up for running the harness from compiled output.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { startSimulator, type RequestLogEntry, type RunningSimulator, type SimulatorOptions } from "pulumi-cloudplatform/simulator";
import { createTestStack, REPO_ROOT, type TestStack } from "../tests/integration/harness";

/** The repository root (the harness finds it from dist-bench/ too). */
export const ROOT: string = REPO_ROOT;

/** One line of progress on stderr, so the report on stdout stays clean. */
export function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Milliseconds since an arbitrary origin, monotonic. */
export function nowMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}

/** Runs `work` and returns its result with the elapsed wall time in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = nowMs();
  const result = await work();
  return { ms: nowMs() - start, result };
}

/** Every Pulumi operation of the benchmarks gets this much time before it is aborted. */
export const OPERATION_TIMEOUT_MS = 180_000;

/** An AbortSignal that fires after {@link OPERATION_TIMEOUT_MS}, for Automation API calls. */
export function deadline(ms = OPERATION_TIMEOUT_MS): AbortSignal {
  return AbortSignal.timeout(ms);
}

/** Options every stack operation uses: no colour, a deadline, output kept for errors only. */
export function opOptions(extra: Record<string, unknown> = {}): Record<string, unknown> & { signal: AbortSignal; color: "never" } {
  return { color: "never", signal: deadline(), ...extra };
}

/** A simulator started for one benchmark section. */
export interface Sim {
  sim: RunningSimulator;
  /** Calls the admin API (no auth, never logged). */
  admin(method: string, urlPath: string, body?: unknown): Promise<unknown>;
  /** Clears the request log. */
  clearLog(): Promise<void>;
  /** The request log since the last clear. */
  log(): RequestLogEntry[];
}

/** One request of the simulator's log (CONTRACT.md "Admin API"). */
export type { RequestLogEntry };

/** Starts an in-process simulator on loopback. */
export async function startSim(options: SimulatorOptions = {}): Promise<Sim> {
  const sim = await startSimulator({ port: 0, ...options });
  const admin = async (method: string, urlPath: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${sim.url}${urlPath}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`simulator admin ${method} ${urlPath} -> ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    sim,
    admin,
    clearLog: async () => void (await admin("DELETE", "/__admin/requests")),
    log: () => sim.requests(),
  };
}

/** Stack config that points the provider (and lookups) at a simulator. */
export function simConfig(sim: RunningSimulator): Record<string, { value: string; secret?: boolean }> {
  return {
    "cloudplatform:baseUrl": { value: sim.url },
    "cloudplatform:apiKey": { value: sim.apiKey, secret: true },
  };
}

let stackCounter = 0;

/**
 * A stack on a temporary backend through the integration-test harness (program dir = repo root);
 * `envVars` reach the CLI (the plugin path puts the plugin on PATH this way).
 */
export async function benchStack(program: PulumiFn, sim?: RunningSimulator, envVars?: Record<string, string>): Promise<TestStack> {
  const projectName = "cloudplatform-bench";
  const t = await createTestStack({
    projectName,
    stackName: `bench${++stackCounter}`,
    program,
    config: sim ? simConfig(sim) : undefined,
    envVars,
    asUsersRun: true,
  });
  return t;
}

/** Runs `body` with a stack and always tears it down (destroy, remove, delete the temp dir). */
export async function withStack<T>(program: PulumiFn, sim: RunningSimulator | undefined, body: (stack: Stack, t: TestStack) => Promise<T>): Promise<T> {
  const t = await benchStack(program, sim);
  try {
    return await body(t.stack, t);
  } finally {
    await t.cleanup().catch((err) => progress(`cleanup failed: ${errorText(err)}`));
  }
}

/** The first line of an error, with Pulumi's output tail when it is a CommandError. */
export function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  const interesting = lines.filter((l) => /error|failed|not implemented|exception/i.test(l));
  return (interesting.slice(-2).join(" | ") || lines[0] || text).slice(0, 400);
}

/** The request kind of one logged request: a readable name for the API call it is. */
export function requestKind(r: Pick<RequestLogEntry, "method" | "path">): string {
  const p = r.path.replace(/\/+$/, "");
  const m = r.method;
  if (m === "GET" && /^\/cloud\/v1\/tasks\/[^/]+$/.test(p)) return "GET task (poll)";
  if (m === "GET" && /^\/cloud\/v2\/k8s\/clusters\/[^/]+\/[^/]+\/[^/]+\/upgrade_versions$/.test(p)) return "upgrade versions (GET)";
  if (m === "POST" && /^\/cloud\/v2\/k8s\/clusters\/[^/]+\/[^/]+\/pools\/check_limits$/.test(p)) return "quota check (POST)";
  if (m === "POST" && /^\/cloud\/v2\/k8s\/clusters\/[^/]+\/[^/]+\/[^/]+\/upgrade$/.test(p)) return "upgrade (POST)";
  if (m === "GET" && /^\/cloud\/v2\/k8s\/clusters\/[^/]+\/[^/]+\/[^/]+$/.test(p)) return "cluster read (GET)";
  if (m === "GET" && /^\/cloud\/v2\/k8s\/clusters\/[^/]+\/[^/]+$/.test(p)) return "cluster list (GET)";
  if (/^\/storage\/notifications\/v1\/event$/.test(p)) return `event ${m}`;
  if (m === "GET" && /^\/storage\/notifications\/v1\/events$/.test(p)) return "event list (GET)";
  // Anything else: the method and the path with ids and names generalised.
  const generic = p
    .replace(/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "/{uuid}")
    .replace(/\/\d+(?=\/|$)/g, "/{n}");
  return `${m} ${generic}`;
}

/** Whether a request changes something (POST, PUT, PATCH, DELETE). */
export function isWrite(r: Pick<RequestLogEntry, "method">): boolean {
  return r.method !== "GET" && r.method !== "HEAD" && r.method !== "OPTIONS";
}

/** Counts of requests by kind. */
export function countKinds(log: readonly RequestLogEntry[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of log) counts.set(requestKind(r), (counts.get(requestKind(r)) ?? 0) + 1);
  return counts;
}

/** `a: 1, b: 2` for a count map, or `none`. */
export function formatCounts(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return "none";
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} x${n}`).join(", ");
}

/** Exported state resources of a stack, without the stack and provider resources. */
export async function stateResources(stack: Stack): Promise<Array<Record<string, any>>> {
  const state = await stack.exportStack();
  const resources = ((state.deployment as any)?.resources ?? []) as Array<Record<string, any>>;
  return resources.filter((r) => r.type !== "pulumi:pulumi:Stack" && !String(r.type).startsWith("pulumi:providers:"));
}

/** A pulumi.Output's value inside the program, as a promise (for lookups). */
export function settle<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply((v) => resolve(v)));
}

/** Seconds with one decimal. */
export function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Bytes as `1234 B (1.2 KB)`. */
export function bytes(n: number): string {
  return n < 1024 ? `${n} B` : `${n} B (${(n / 1024).toFixed(1)} KB)`;
}
