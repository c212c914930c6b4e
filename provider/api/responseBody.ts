/**
 * Response bodies read from a stream with a size cap (axios would buffer a runaway answer
 * whole), and the check of a 2xx body against the expected answer.
 */
import type { Readable } from "stream";
import { messageOf } from "./errors";
import { checkBody, kindOf, type ResponseSchema } from "./schema";

/** Default cap of a success body: 64 MiB, far above any answer of this API. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Enough for any error shape of the API. */
export const ERROR_BODY_KEEP_BYTES = 16 * 1024;

const QUOTE_CHARS = 160;

/** A body as read: its text (up to the cap) and whether more was sent. */
export interface ReadBody {
  readonly text: string;
  readonly bytes: number;
  /** Reading stopped at the cap. */
  readonly overflow: boolean;
}

/** Stops at `cap`; rejects with `ETIMEDOUT` when a trickling body outlasts `timeoutMs`. */
export function readCapped(stream: Readable, cap: number, timeoutMs: number, signal?: AbortSignal): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: string[] = [];
    let bytes = 0;
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const text = (): string => chunks.join("");
    const onAbort = (): void => {
      stream.destroy();
      finish(() => reject(Object.assign(new Error("the request was aborted while its body was read"), { code: "ERR_CANCELED" })));
    };
    const timer = setTimeout(() => {
      stream.destroy();
      finish(() => reject(Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded while the body was read`), { code: "ETIMEDOUT" })));
    }, Math.max(1, timeoutMs));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    // Decoded as UTF-8 by the stream, so a character split across chunks stays whole.
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const size = Buffer.byteLength(chunk);
      if (bytes + size > cap) {
        chunks.push(chunk.slice(0, cap - bytes));
        bytes = cap;
        stream.destroy();
        finish(() => resolve({ text: text(), bytes, overflow: true }));
        return;
      }
      chunks.push(chunk);
      bytes += size;
    });
    stream.once("end", () => finish(() => resolve({ text: text(), bytes, overflow: false })));
    stream.once("error", (err) => finish(() => reject(err)));
    stream.once("close", () =>
      finish(() =>
        stream.readableEnded
          ? resolve({ text: text(), bytes, overflow: false })
          : reject(Object.assign(new Error("the connection closed before the body was complete"), { code: "ECONNRESET" })),
      ),
    );
  });
}

/** Why a 2xx body is not the expected answer. */
export interface BodyProblem {
  readonly field: string;
  readonly problem: string;
  /** What came, cut short (not yet redacted). */
  readonly received: string;
}

/**
 * With `schema` null (the spec's 204) any JSON or no body is accepted, but not a gateway's HTML
 * page: the PUT may never have arrived. JSON is read whatever the content type says.
 */
export function checkSuccessBody<T>(
  schema: ResponseSchema<T> | null,
  contentType: string | undefined,
  body: ReadBody,
): { ok: true; data: T | undefined } | { ok: false; problem: BodyProblem } {
  const empty = body.text.trim() === "";
  if (schema === null && empty) return { ok: true, data: undefined };
  if (empty) return fail("(body)", "expected a JSON body, got an empty body", "nothing");
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch (err) {
    const why = messageOf(err);
    const labelled = `content type ${contentType ? JSON.stringify(contentType) : "none"}`;
    if (schema === null) return fail("(body)", `expected no body or JSON (the documented answer is a 204), got a body that is not JSON (${labelled})`, quoteText(body.text));
    if (!isJsonMediaType(contentType)) return fail("(body)", `expected JSON, got a body that is not JSON (${labelled})`, quoteText(body.text));
    return fail("(body)", `the JSON is malformed or cut short after ${body.bytes} bytes (${why})`, quoteText(body.text, true));
  }
  if (schema === null) return { ok: true, data: undefined };
  const checked = checkBody(schema, parsed);
  if (checked.ok) return { ok: true, data: checked.value };
  const { field, problem, value } = checked.mismatch;
  return fail(field, problem, value === undefined ? "nothing (the field is missing)" : quoteValue(value));
}

function fail(field: string, problem: string, received: string): { ok: false; problem: BodyProblem } {
  return { ok: false, problem: { field, problem, received } };
}

/** True for `application/json` and `application/<something>+json`, parameters ignored. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** `text "<html>..."`, cut short (the end when `tail`, where a cut JSON shows its break). */
export function quoteText(text: string, tail = false): string {
  const t = text.trim();
  if (t.length <= QUOTE_CHARS) return `text ${JSON.stringify(t)}`;
  return tail ? `text ${JSON.stringify(`...${t.slice(-QUOTE_CHARS)}`)} (${t.length} characters)` : `text ${JSON.stringify(`${t.slice(0, QUOTE_CHARS)}...`)} (${t.length} characters)`;
}

function quoteValue(value: unknown): string {
  if (value === null) return "null";
  const json = JSON.stringify(value) ?? String(value);
  return `${kindOf(value)} ${json.length > QUOTE_CHARS ? `${json.slice(0, QUOTE_CHARS)}...` : json}`;
}
