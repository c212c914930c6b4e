/**
 * Shared helpers for the simulator tests: start a simulator with known tokens and call it with
 * Node's global fetch (never the provider's client: the simulator is tested on its own).
 */
import { RunningSimulator, SimulatorOptions, startSimulator } from "../../../simulator";

/** Full-rights token used by the tests. */
export const KEY = "test-key";
/** Read-only token used by the tests. */
export const RO_KEY = "read-only-key";

/** Starts a simulator with the test tokens (and any extra options). */
export function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ apiKey: KEY, readOnlyApiKey: RO_KEY, ...options });
}

/** A decoded response. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Options of `call`. */
export interface CallOptions {
  body?: unknown;
  /** Token; null sends no Authorization header. */
  key?: string | null;
  /** Raw Authorization header (overrides key). */
  auth?: string;
  rawBody?: string;
}

/** Calls the simulator and decodes JSON when there is a body. */
export async function call(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? KEY : opts.key;
  if (opts.auth !== undefined) headers.Authorization = opts.auth;
  else if (key !== null) headers.Authorization = `apikey ${key}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text !== "") parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Polls a task until it leaves NEW/RUNNING (bounded by a generous deadline, not asserted on). */
export async function waitTask(baseUrl: string, id: string, deadlineMs = 20000): Promise<Reply> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const r = await call(baseUrl, "GET", `/cloud/v1/tasks/${id}`);
    if (r.status !== 200 || (r.body.state !== "NEW" && r.body.state !== "RUNNING")) return r;
    if (Date.now() > until) throw new Error(`task ${id} still ${String(r.body.state)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The 4 cloud error fields. */
export function expectCloudError(r: Reply, status: number, exceptionClass: string): void {
  expect(r.status).toBe(status);
  expect(r.body.exception_class).toBe(exceptionClass);
  expect(typeof r.body.message).toBe("string");
  expect(r.body.request_id).toBe(r.headers.get("x-request-id"));
}
