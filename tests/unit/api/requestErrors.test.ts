/**
 * The errors about one request share one base, `RequestError`: a caller reads the call and the
 * attempts made the same way whether the server answered with an error status, answered
 * malformed, did not answer, or the caller cancelled. Each class's message says the attempts
 * once: the note on why retrying stopped, or else their number.
 */
import {
  ApiError,
  CloudPlatformError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  RequestAbortedError,
  RequestError,
  ResponseFormatError,
  ResponseTooLargeError,
  ServerError,
} from "../../../provider/api";
import { makeApiError } from "../../../provider/api/errors";

const call = { method: "GET", path: "/cloud/v1/regions" } as const;
const status = (s: number, attempts: number, note?: string) => makeApiError({ ...call, status: s, serverMessage: "the server's words", attempts, note, mayHaveActed: s >= 500 });
const network = (attempts: number, note?: string) =>
  new ConnectionError({ ...call, target: "127.0.0.1:1", code: "ECONNRESET", detail: "socket hang up", mayHaveReachedServer: true, timedOut: false, attempts, note });
const format = (attempts: number, note?: string) =>
  new ResponseFormatError({ ...call, status: 200, field: "results", problem: "expected array, got null", received: "null", attempts, note, mayHaveActed: true });
const tooLarge = (attempts: number, note?: string) =>
  new ResponseTooLargeError({ ...call, status: 200, field: "(body)", problem: "the body exceeds maxResponseBytes", received: "(cut)", attempts, note, mayHaveActed: true });

const EVERY_REQUEST_ERROR: ReadonlyArray<readonly [string, (attempts: number, note?: string) => RequestError]> = [
  ["ApiError (404)", (a, n) => status(404, a, n)],
  ["ApiError (503)", (a, n) => status(503, a, n)],
  ["ApiError (429)", (a, n) => status(429, a, n)],
  ["ApiError (405)", (a, n) => status(405, a, n)],
  ["ConnectionError", network],
  ["ResponseFormatError", format],
  ["ResponseTooLargeError", tooLarge],
];

test.each(EVERY_REQUEST_ERROR)("%s is a RequestError carrying the call and the attempts", (_name, make) => {
  const err = make(3);
  expect(err).toBeInstanceOf(RequestError);
  expect(err).toBeInstanceOf(CloudPlatformError);
  expect({ method: err.method, path: err.path, attempts: err.attempts }).toEqual({ ...call, attempts: 3 });
});

test.each(EVERY_REQUEST_ERROR)("%s says the attempts once: their number without a note", (_name, make) => {
  const err = make(3);
  expect(err.message).toContain("(3 attempts)");
  expect(err.message.match(/attempt/g)).toHaveLength(1);
});

test.each(EVERY_REQUEST_ERROR)("%s says the attempts once: the note when retrying stopped for a reason", (_name, make) => {
  const err = make(4, "Gave up after 4 attempts.");
  expect(err.message).toContain("Gave up after 4 attempts.");
  expect(err.message.match(/attempt/g)).toHaveLength(1);
});

test.each(EVERY_REQUEST_ERROR)("%s does not mention attempts after a single one", (_name, make) => {
  const err = make(1);
  expect(err.attempts).toBe(1);
  expect(err.message).not.toMatch(/attempt/);
});

test("the status classes keep their place under ApiError", () => {
  expect(status(404, 1)).toBeInstanceOf(NotFoundError);
  expect(status(503, 1)).toBeInstanceOf(ServerError);
  expect(status(429, 1)).toBeInstanceOf(RateLimitError);
  for (const s of [404, 503, 429, 405]) expect(status(s, 1)).toBeInstanceOf(ApiError);
  expect(tooLarge(1)).toBeInstanceOf(ResponseFormatError);
  expect(network(1)).not.toBeInstanceOf(ApiError);
});

test("an ApiError's attempts come before its request id", () => {
  const err = makeApiError({ ...call, status: 503, serverMessage: "busy", requestId: "r-1", attempts: 2, mayHaveActed: true });
  expect(err.message).toBe("GET /cloud/v1/regions failed (503 ServerError): busy (2 attempts) [request id r-1]");
});

test("a cancelled request is a RequestError too, of one attempt unless told", () => {
  const err = new RequestAbortedError("POST", "/cloud/v2/k8s/clusters/1/76/c/upgrade");
  expect(err).toBeInstanceOf(RequestError);
  expect({ method: err.method, path: err.path, attempts: err.attempts }).toEqual({ method: "POST", path: "/cloud/v2/k8s/clusters/1/76/c/upgrade", attempts: 1 });
  expect(new RequestAbortedError("GET", "/x", 3).attempts).toBe(3);
  expect(err.name).toBe("RequestAbortedError");
});
