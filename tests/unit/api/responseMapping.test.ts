/**
 * What an answer means (provider/api/responseMapping.ts), from status, headers and body alone:
 * no socket, no client.
 */
import { publicError, type AttemptFailure } from "../../../provider/api/attemptFailure";
import { AuthenticationError, ConflictError, RateLimitError, ResponseFormatError, ResponseTooLargeError } from "../../../provider/api";
import { mapAnswer, type AnswerInput } from "../../../provider/api/responseMapping";
import { classifyFailure, type HttpMethod } from "../../../provider/api/retry";
import { z } from "zod";

/** The caller's error for a failure, judged by the default policy. */
function errorOf(failure: AttemptFailure, attempts = 1, note?: string) {
  return publicError({ failure, verdict: classifyFailure(failure.init.method as HttpMethod, failure) }, attempts, note);
}

function answer<T>(over: Partial<AnswerInput<T>> & { headers?: Record<string, string>; text?: string; overflow?: boolean }): AnswerInput<T> {
  const headers = over.headers ?? { "content-type": "application/json" };
  const text = over.text ?? "";
  return {
    method: "GET",
    path: "/iam/clients/me",
    response: null,
    status: 200,
    header: (name) => headers[name.toLowerCase()],
    body: { text, bytes: Buffer.byteLength(text), overflow: over.overflow ?? false },
    maxResponseBytes: 1024,
    nowMs: Date.parse("2026-01-01T00:00:00Z"),
    apiKeySource: "the client option `apiKey`",
    baseUrlSource: "the client option `baseUrl`",
    ...over,
  };
}

const me = z.object({ id: z.number() });

test("a 2xx that matches the schema is its data", () => {
  expect(mapAnswer(answer({ response: me, text: '{"id": 7}' }))).toEqual({ ok: true, data: { id: 7 } });
  expect(mapAnswer(answer({ status: 204 }))).toEqual({ ok: true, data: undefined });
});

test("a 2xx that does not match is a format failure naming the field; a cut body past the cap is too large", () => {
  const wrong = mapAnswer(answer({ response: me, text: '{"id": "seven"}' }));
  expect(wrong.ok).toBe(false);
  if (wrong.ok) return;
  expect(wrong.failure).toMatchObject({ kind: "format", tooLarge: false, init: { field: "id", status: 200 } });
  expect(errorOf(wrong.failure, 1)).toBeInstanceOf(ResponseFormatError);
  const big = mapAnswer(answer({ response: me, headers: { "content-length": "5000" }, overflow: true }));
  expect(big.ok).toBe(false);
  if (big.ok) return;
  expect(big.failure).toMatchObject({ kind: "format", tooLarge: true, init: { received: "5000 bytes (Content-Length)" } });
  expect(errorOf(big.failure, 1)).toBeInstanceOf(ResponseTooLargeError);
});

test("an error status keeps the server's words, its request id and Retry-After", () => {
  const limited = mapAnswer(
    answer({ status: 429, headers: { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT", "x-request-id": "r-1" }, text: JSON.stringify({ message: "slow down" }) }),
  );
  expect(limited.ok).toBe(false);
  if (limited.ok) return;
  expect(limited.failure).toMatchObject({ kind: "status", status: 429, retryAfterMs: 5000, init: { serverMessage: "slow down", requestId: "r-1" } });
  const err = errorOf(limited.failure, 3, "Gave up after 3 attempts.");
  expect(err).toBeInstanceOf(RateLimitError);
  expect(err.message).toBe("GET /iam/clients/me failed (429 RateLimitError): slow down Gave up after 3 attempts. [request id r-1]");
});

test("each product's error shape: storage's `error`, the reseller's problem+json", () => {
  const storage = mapAnswer(answer({ status: 409, path: "/storage/notifications/v1/event", text: JSON.stringify({ error: "already exists" }) }));
  expect(!storage.ok && errorOf(storage.failure, 1)).toBeInstanceOf(ConflictError);
  expect(!storage.ok && storage.failure.kind === "status" && storage.failure.init.serverMessage).toBe("already exists");
  const waap = mapAnswer(answer({ status: 422, path: "/waap/reseller/totals", text: JSON.stringify({ detail: "bad", errors: [{ loc: ["query", "limit"], detail: "too big" }] }) }));
  expect(!waap.ok && errorOf(waap.failure, 1).message).toContain("bad [query.limit: too big]");
});

test("a 401 names where the key is set; a redirect names where the base URL is set and is not followed", () => {
  const denied = mapAnswer(answer({ status: 401, text: "{}", apiKeySource: "the KEY file" }));
  const err = !denied.ok && errorOf(denied.failure, 1);
  expect(err).toBeInstanceOf(AuthenticationError);
  expect(err && err.message).toContain("set it with the KEY file.");
  const moved = mapAnswer(answer({ status: 302, headers: { location: "https://elsewhere.example/" }, baseUrlSource: "the URL file" }));
  expect(!moved.ok && errorOf(moved.failure, 1).message).toContain(
    'redirected to "https://elsewhere.example/"; redirects are not followed, so the API key never goes to another address: set the URL file to the address that answers',
  );
});

test("an error body that is not JSON is kept as text, cut short", () => {
  const page = mapAnswer(answer({ status: 502, text: `<html>${"x".repeat(3000)}</html>` }));
  expect(!page.ok && page.failure.kind === "status" && typeof page.failure.init.body === "string" && page.failure.init.body.length).toBe(2003);
});
