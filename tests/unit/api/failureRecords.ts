/** Failure records as the transport builds them for a request `method /x`, for the pure tests of the retry decision. */
import type { HttpMethod } from "../../../provider/api";
import type { AttemptFailure } from "../../../provider/api/attemptFailure";

/** One maker per kind of failure: an error status, no answer, a malformed answer. */
export const failed = {
  status: (method: HttpMethod, status: number, retryAfterMs?: number): AttemptFailure => ({
    kind: "status",
    status,
    retryAfterMs,
    init: { method, path: "/x", status, serverMessage: "the server's words" },
  }),
  network: (method: HttpMethod, code: string): AttemptFailure => ({
    kind: "network",
    code,
    init: { method, path: "/x", target: "127.0.0.1:1", code, detail: code, timedOut: false },
  }),
  format: (method: HttpMethod, tooLarge = false): AttemptFailure => ({
    kind: "format",
    tooLarge,
    init: { method, path: "/x", status: 200, field: "(body)", problem: "expected JSON", received: 'text "<html>"' },
  }),
};
