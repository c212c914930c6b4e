/**
 * Writing an answer to the socket: a route's result as JSON (or no body), a route's error, or an
 * answer spoilt by a malformed-answer rule (`malformed.ts`), including the huge and the stalling
 * bodies that must stop as soon as the client goes away.
 *
 * Why apart from the server: the pipeline (`server.ts`) decides what to answer; this module only
 * knows how each kind of answer goes over HTTP.
 */
import type * as http from "http";
import type { HttpError } from "./errors";
import { malformedAnswer, type MalformedChoice } from "./malformed";
import type { RouteResult } from "./routeResult";

/** Sends a result; returns the bytes of body sent (for the request log). */
export function send(res: http.ServerResponse, result: RouteResult): number {
  if (res.destroyed) return 0;
  for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
  if (result.status === 204 || result.body === undefined) {
    res.writeHead(result.status);
    res.end();
    return 0;
  }
  const text = JSON.stringify(result.body);
  const bytes = Buffer.byteLength(text);
  res.writeHead(result.status, {
    "Content-Type": `${result.contentType ?? "application/json"}; charset=utf-8`,
    "Content-Length": bytes,
  });
  res.end(text);
  return bytes;
}

/**
 * Writes a spoilt answer (`malformed.ts`). `hugeBody` streams `{"padding":"xxx...","answer":<real>}`
 * of about `hugeBytes` in 1 MiB chunks without a Content-Length (as a chunked proxy would);
 * `slowBody` announces the full length, sends half and stalls `slowMs` before the rest. Both stop
 * as soon as the client goes away.
 */
export async function sendMalformed(res: http.ServerResponse, choice: MalformedChoice, result: RouteResult): Promise<number> {
  const answer = malformedAnswer(choice, result);
  if (res.destroyed) return answer.status;
  for (const [k, v] of Object.entries(result.headers ?? {})) res.setHeader(k, v);
  const headers: Record<string, string | number> = answer.contentType ? { "Content-Type": answer.contentType } : {};
  if (choice.mode === "hugeBody") {
    res.writeHead(answer.status, headers);
    const chunk = "x".repeat(1024 * 1024);
    const closed = new Promise<void>((resolve) => res.once("close", () => resolve()));
    res.write('{"padding":"');
    for (let sent = 0; sent < choice.hugeBytes && !res.destroyed; sent += chunk.length) {
      if (!res.write(chunk)) await Promise.race([new Promise<void>((resolve) => res.once("drain", () => resolve())), closed]);
    }
    if (!res.destroyed) res.end(`","answer":${answer.body}}`);
    return answer.status;
  }
  res.writeHead(answer.status, { ...headers, "Content-Length": Buffer.byteLength(answer.body) });
  if (answer.stallAt === undefined) {
    res.end(answer.body);
    return answer.status;
  }
  const bytes = Buffer.from(answer.body);
  res.write(bytes.subarray(0, answer.stallAt));
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, choice.slowMs);
    res.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  if (!res.destroyed) res.end(bytes.subarray(answer.stallAt));
  return answer.status;
}

/** The result that answers with a route's {@link HttpError}. */
export function fromError(err: HttpError): RouteResult {
  return { status: err.status, body: err.body, contentType: err.contentType, headers: err.headers };
}
