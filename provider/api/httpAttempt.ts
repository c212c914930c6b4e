/** One HTTP attempt, the transport's only I/O and the only module that imports axios. */
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import type { Readable } from "stream";
import type { AttemptFailure } from "./attemptFailure";
import type { HttpOptions } from "./clientOptions";
import { formatDuration } from "./duration";
import { messageOf, RequestAbortedError } from "./errors";
import { ERROR_BODY_KEEP_BYTES, readCapped, type ReadBody } from "./responseBody";
import type { HeaderLookup } from "./retry";
import type { RequestSpec } from "./transport";
import { isLoopback, serializeQuery } from "./url";

/** An answer as it came: status, headers and the body read up to its cap. */
export interface RawAnswer {
  readonly status: number;
  readonly header: HeaderLookup;
  /** `overflow` without text when a 2xx's Content-Length already passed the cap (not read). */
  readonly body: ReadBody;
}

/** No answer: the network failure as it came (the caller scrubs and judges it). */
export type NoAnswer = Extract<AttemptFailure, { kind: "network" }>;

/**
 * Sends one attempt of a request (`shownPath`: its path as messages show it, the key redacted):
 * its answer, or the failure when none came; rejects with RequestAbortedError when cancelled.
 */
export type HttpAttempt = (spec: RequestSpec<unknown>, shownPath: string) => Promise<RawAnswer | NoAnswer>;

/**
 * One axios instance for the client; the auth header is added per request (never stored where
 * an inspected object could show it).
 */
export function createHttpAttempt(o: HttpOptions): HttpAttempt {
  const origin = new URL(o.baseUrl);
  const http: AxiosInstance = axios.create({
    baseURL: o.baseUrl,
    timeout: o.timeoutMs,
    maxRedirects: 0,
    allowAbsoluteUrls: false,
    adapter: "http",
    // A proxy cannot reach this machine's loopback; elsewhere the usual proxy variables apply.
    ...(isLoopback(origin.hostname) ? { proxy: false as const } : {}),
    // A stream, read by readCapped: the size cap holds while reading, not after buffering.
    responseType: "stream",
    decompress: true,
    validateStatus: () => true,
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
  });

  return async (spec, shownPath) => {
    const started = o.now();
    const timeoutMs = spec.options?.timeoutMs ?? o.timeoutMs;
    const signal = spec.options?.signal;
    let res: AxiosResponse<Readable>;
    try {
      res = await http.request<Readable>({
        method: spec.method,
        url: spec.path + serializeQuery(spec.query),
        headers: {
          Authorization: `apikey ${o.apiKey}`,
          "User-Agent": o.userAgent,
          Accept: "application/json",
          ...(spec.body !== undefined ? { "Content-Type": "application/json" } : {}),
        },
        data: spec.body !== undefined ? JSON.stringify(spec.body) : undefined,
        timeout: timeoutMs,
        signal,
      });
    } catch (err) {
      return networkFailure(origin.host, spec, shownPath, err);
    }
    const header: HeaderLookup = (name) => headerValue(res.headers, name);
    const success = res.status >= 200 && res.status < 300;
    const cap = success ? o.maxResponseBytes : ERROR_BODY_KEEP_BYTES;
    if (success && Number(header("content-length")) > cap) {
      res.data.destroy();
      return { status: res.status, header, body: { text: "", bytes: 0, overflow: true } };
    }
    let body: ReadBody;
    try {
      body = await readCapped(res.data, cap, Math.max(1, timeoutMs - (o.now() - started)), signal);
    } catch (err) {
      return networkFailure(origin.host, spec, shownPath, err);
    }
    o.logger?.debug?.(`${spec.method} ${shownPath} -> ${res.status} (${formatDuration(o.now() - started)})`);
    return { status: res.status, header, body };
  };
}

/** The failure of an attempt that got no answer; a cancellation by the caller throws RequestAbortedError. */
function networkFailure(target: string, spec: RequestSpec<unknown>, path: string, err: unknown): NoAnswer {
  if (spec.options?.signal?.aborted || axios.isCancel(err)) throw new RequestAbortedError(spec.method, path);
  const code = errorCode(err);
  const timedOut = code === "ETIMEDOUT" || code === "ECONNABORTED";
  return { kind: "network", code, init: { method: spec.method, path, target, code, detail: messageOf(err) || code, timedOut } };
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const h = headers as { get?: (n: string) => unknown } & Record<string, unknown>;
  const v = typeof h.get === "function" ? h.get(name) : h[name.toLowerCase()];
  if (v === undefined || v === null || v === false) return undefined;
  return Array.isArray(v) ? v.map(String).join(", ") : String(v);
}

/** The Node error code of a failed request, looking through axios wrappers and AggregateErrors. */
function errorCode(err: unknown): string {
  const seen = new Set<unknown>();
  let e: unknown = err;
  while (e && typeof e === "object" && !seen.has(e)) {
    seen.add(e);
    const o = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.code === "string" && o.code !== "ERR_NETWORK" && o.code !== "ERR_BAD_RESPONSE") return o.code;
    if (Array.isArray(o.errors) && o.errors.length) {
      const inner = errorCode(o.errors[0]);
      if (inner !== "UNKNOWN") return inner;
    }
    e = o.cause;
  }
  if (err && typeof err === "object" && typeof (err as { code?: unknown }).code === "string") return (err as { code: string }).code;
  return "UNKNOWN";
}
