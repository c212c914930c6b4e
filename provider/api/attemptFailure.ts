/**
 * A failed attempt as one record, and the one place a record becomes the error a caller sees.
 *
 * Why a record: the retry decision reads what went wrong (a status, a network code, a malformed
 * answer) and the pacer a 429's Retry-After, but only the decision knows how many attempts were
 * made and why retrying stopped; so an attempt reports plain data and {@link publicError} builds
 * the caller's error once, at the end.
 */
import {
  ConnectionError,
  makeApiError,
  ResponseFormatError,
  ResponseTooLargeError,
  type ApiErrorInit,
  type CloudPlatformError,
  type ConnectionErrorInit,
  type ResponseFormatErrorInit,
} from "./errors";

type Fields<T> = Omit<T, "attempts" | "note">;

/** What went wrong with one attempt: an error status, a malformed answer, or no answer. */
export type AttemptFailure =
  | { readonly kind: "status"; readonly status: number; readonly retryAfterMs: number | undefined; readonly init: Fields<ApiErrorInit> }
  /** A 2xx whose body is not the documented answer; `tooLarge` when it passed the size cap. */
  | { readonly kind: "format"; readonly tooLarge: boolean; readonly init: Fields<ResponseFormatErrorInit> }
  | { readonly kind: "network"; readonly code: string; readonly init: Fields<ConnectionErrorInit> };

/** An {@link AttemptFailure} as a thrown value: the pacer and p-retry pass on Errors only. */
export class AttemptFailed extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.kind);
  }
}

/** The error a caller sees for `failure` after `attempts` attempts; `note` says why retrying stopped. */
export function publicError(failure: AttemptFailure, attempts: number, note?: string): CloudPlatformError {
  switch (failure.kind) {
    case "status":
      return makeApiError({ ...failure.init, attempts, note });
    case "format":
      return failure.tooLarge ? new ResponseTooLargeError({ ...failure.init, attempts, note }) : new ResponseFormatError({ ...failure.init, attempts, note });
    case "network":
      return new ConnectionError({ ...failure.init, attempts, note });
  }
}
