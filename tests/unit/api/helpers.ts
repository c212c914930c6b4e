/**
 * Shared helpers of the client and waiter tests: a long unique API key (so "the key is absent
 * from the message" is a meaningful assertion), the simulator's admin API and what it reports
 * about requests in flight, a sleep that records
 * instead of waiting, the secret-leak assertion, and starting/stopping a test's own loopback server.
 */
import { randomBytes } from "crypto";
import { inspect } from "util";
import { createServer } from "net";
import type { Server as HttpServer } from "http";
import type { InFlightRequest, RequestLogEntry } from "../../../simulator";

/** A key unlike any text a message could contain by chance. */
export function newKey(): string {
  return `cpk_${randomBytes(20).toString("hex")}`;
}

/** Call the simulator's admin API (no auth), given its base URL or the simulator itself. */
export async function admin(target: string | { readonly url: string }, method: string, path: string, body?: unknown): Promise<any> {
  const baseUrl = typeof target === "string" ? target : target.url;
  const res = await fetch(`${baseUrl}/__admin${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`admin ${method} ${path} -> ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Waits until the simulator reports `until` about the requests it has received (for example
 * "one in flight and held", or "none in flight"), asking its admin API rather than sleeping.
 * Throws after `tries` answers that did not match.
 */
export async function simulatorReports(
  baseUrl: string,
  until: (r: { requests: RequestLogEntry[]; inFlight: InFlightRequest[] }) => boolean,
  tries = 10_000,
): Promise<{ requests: RequestLogEntry[]; inFlight: InFlightRequest[] }> {
  for (let i = 0; i < tries; i++) {
    const r = (await admin(baseUrl, "GET", "/requests")) as { requests: RequestLogEntry[]; inFlight: InFlightRequest[] };
    if (until(r)) return r;
  }
  throw new Error(`the simulator did not report what was awaited after ${tries} answers`);
}

/** A sleep that records each requested wait and returns at once (optionally running a hook). */
export function recordingSleep(hook?: (ms: number, call: number) => void | Promise<void>) {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      await hook?.(ms, waits.length);
    },
  };
}

/** Assert that `secret` appears nowhere in what an error shows: message, stack, inspect, JSON. */
export function expectNoSecret(err: unknown, secret: string): void {
  expect(err).toBeInstanceOf(Error);
  const e = err as Error;
  expect(e.message).not.toContain(secret);
  expect(String(e.stack)).not.toContain(secret);
  expect(inspect(e, { depth: 20, showHidden: true })).not.toContain(secret);
  expect(JSON.stringify(e)).not.toContain(secret);
  // Even a prefix of the key is a leak.
  expect(e.message).not.toContain(secret.slice(0, 12));
}

/** Capture the rejection of a promise, failing if it resolves. */
export async function rejectionOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

/** A port nothing listens on right now (to start a server there later, or to be refused). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `server` (a test's own HTTP stand-in for the API) on a free loopback port; returns its base URL. */
export async function listenOnLoopback(server: HttpServer): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  return `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
}

/** Stops a server from {@link listenOnLoopback}, cutting kept-alive connections so jest can exit. */
export function closeServer(server: HttpServer): Promise<void> {
  return new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
}
