/**
 * A failed attempt as a record, and the one place a record becomes the public error.
 *
 * Why a record: the retry policy decides on what went wrong (status, network code, a malformed
 * answer), the pacer on a 429's Retry-After, and only the end of the loop knows how many attempts
 * were made and why retrying stopped; so an attempt reports plain data and {@link publicError}
 * builds the error the caller sees, once.
 */
import {
  CloudPlatformError,
  ConnectionError,
  makeApiError,
  RequestAbortedError,
  ResponseFormatError,
  ResponseTooLargeError,
  type ApiErrorInit,
  type ConnectionErrorInit,
  type ResponseFormatErrorInit,
} from "./errors";

type Fields<T> = Omit<T, "attempts" | "note">;

/** What went wrong with one attempt, with what the public error will say. */
export type FailureRecord =
  | { readonly kind: "status"; readonly status: number; readonly retryAfterMs: number | undefined; readonly init: Fields<ApiErrorInit> }
  | { readonly kind: "format"; readonly tooLarge: boolean; readonly init: Fields<ResponseFormatErrorInit> }
  | { readonly kind: "network"; readonly code: string; readonly init: Fields<ConnectionErrorInit> }
  | { readonly kind: "aborted"; readonly method: string; readonly path: string }
  /** Something the client itself threw (a bug, not an answer), already redacted. */
  | { readonly kind: "unexpected"; readonly error: CloudPlatformError };

/**
 * A record thrown through p-retry (which wants an Error), with the number of the attempt that
 * failed. Internal to the transport: callers only ever see {@link publicError}'s result.
 */
export class AttemptFailed extends Error {
  constructor(
    readonly record: FailureRecord,
    readonly attempt = 1,
  ) {
    super(record.kind);
  }
}

/** The Retry-After of a failed attempt, if the server sent one. */
export function retryAfterOf(record: FailureRecord): number | undefined {
  return record.kind === "status" ? record.retryAfterMs : undefined;
}

/** The error a caller sees for `record`, after `attempts` attempts; `note` says why retrying stopped. */
export function publicError(record: FailureRecord, attempts: number, note?: string): CloudPlatformError {
  switch (record.kind) {
    case "status":
      return makeApiError({ ...record.init, attempts, note });
    case "format":
      return record.tooLarge ? new ResponseTooLargeError({ ...record.init, attempts, note }) : new ResponseFormatError({ ...record.init, attempts, note });
    case "network":
      return new ConnectionError({ ...record.init, attempts, note });
    case "aborted":
      return new RequestAbortedError(record.method, record.path);
    case "unexpected":
      return record.error;
  }
}
