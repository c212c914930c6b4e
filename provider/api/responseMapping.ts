/** What an HTTP answer means, as a pure function: the client's contract, tested without a socket. */
import type { AttemptFailure } from "./attemptFailure";
import type { MappingOptions } from "./clientOptions";
import { checkSuccessBody, quoteText, type BodyProblem, type ReadBody } from "./responseBody";
import { parseRetryAfter, type HeaderLookup, type HttpMethod } from "./retry";
import type { ResponseSchema } from "./schema";
import { parseServerError } from "./serverErrors";
import { productOf } from "./url";

/** One answer as read, and what the mapping needs to know about the call. */
export interface AnswerInput<T> extends MappingOptions {
  readonly method: HttpMethod;
  /** The request path as messages show it, the key redacted (the product is read from it). */
  readonly path: string;
  readonly response: ResponseSchema<T> | null;
  readonly status: number;
  readonly header: HeaderLookup;
  /** The body as read: up to the cap, `overflow` when it went on past it (or was not read). */
  readonly body: ReadBody;
  /** For a Retry-After given as an HTTP date. */
  readonly nowMs: number;
}

/** The data of a 2xx that is the documented answer, or the failure record of anything else. */
export type MappedAnswer<T> = { readonly ok: true; readonly data: T } | { readonly ok: false; readonly failure: AttemptFailure };

/** Maps one answer; never throws. The texts are as the server sent them: the transport scrubs the key from the failure. */
export function mapAnswer<T>(a: AnswerInput<T>): MappedAnswer<T> {
  const formatFailure = (problem: BodyProblem, tooLarge = false): MappedAnswer<T> => ({
    ok: false,
    failure: {
      kind: "format",
      tooLarge,
      init: { method: a.method, path: a.path, status: a.status, ...problem },
    },
  });
  if (a.status >= 200 && a.status < 300) {
    const declared = Number(a.header("content-length"));
    if (a.body.overflow) return formatFailure(tooLargeProblem(declared > a.maxResponseBytes ? declared : undefined, a.maxResponseBytes), true);
    const checked = checkSuccessBody(a.response, a.header("content-type"), a.body);
    return checked.ok ? { ok: true, data: checked.data as T } : formatFailure(checked.problem);
  }
  const data = parseErrorBody(a.body.text, a.body.overflow);
  const parsed = parseServerError(productOf(a.path), data);
  const retryAfterMs = parseRetryAfter(a.header, a.nowMs);
  const redirect = a.status >= 300 && a.status < 400 ? redirectMessage(a.header("location"), a.baseUrlSource) : undefined;
  return {
    ok: false,
    failure: {
      kind: "status",
      status: a.status,
      retryAfterMs,
      init: {
        method: a.method,
        path: a.path,
        status: a.status,
        serverMessage: redirect ?? parsed.message,
        exceptionClass: parsed.exceptionClass,
        requestId: parsed.requestId ?? a.header("x-request-id"),
        errors: parsed.errors,
        body: data,
        retryAfterMs,
        apiKeySource: a.apiKeySource,
      },
    },
  };
}

/** An error body: its JSON when it parses, else its text, cut short either way. */
function parseErrorBody(text: string, cut: boolean): unknown {
  if (text.trim() === "") return undefined;
  if (!cut) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON: kept as text below
    }
  }
  return text.length > 2000 ? `${text.slice(0, 2000)}...` : text;
}

function tooLargeProblem(declared: number | undefined, cap: number): BodyProblem {
  const size = declared !== undefined ? `${declared} bytes (Content-Length)` : `more than ${cap} bytes`;
  return { field: "(body)", problem: `the body exceeds the client's maxResponseBytes of ${cap} bytes; reading stopped there`, received: size };
}

/** A 3xx: said plainly, since following it could send the key to another address. */
function redirectMessage(location: string | undefined, baseUrlSource: string): string {
  const where = location ? `redirected to ${quoteText(location).replace(/^text /, "")}` : "redirected";
  return `${where}; redirects are not followed, so the API key never goes to another address: set ${baseUrlSource} to the address that answers`;
}
