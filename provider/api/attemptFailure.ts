/**
 * A failed attempt as one record, judged once, and the one place a record becomes the error a
 * caller sees.
 *
 * Why a record: the retry decision, the pacer and the write guard read what went wrong (a
 * status, a network code, a malformed answer) through its verdict, but only the decision knows
 * how many attempts were made and why retrying stopped; so an attempt reports plain data and
 * {@link publicError} builds the caller's error once, at the end.
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

type Fields<T> = Omit<T, "attempts" | "note" | "mayHaveActed">;

/** What went wrong with one attempt: an error status, a malformed answer, or no answer. */
export type AttemptFailure =
  | { readonly kind: "status"; readonly status: number; readonly retryAfterMs: number | undefined; readonly init: Fields<ApiErrorInit> }
  /** A 2xx whose body is not the documented answer; `tooLarge` when it passed the size cap. */
  | { readonly kind: "format"; readonly tooLarge: boolean; readonly init: Fields<ResponseFormatErrorInit> }
  /** Whether it may have reached the server is the verdict's to say. */
  | { readonly kind: "network"; readonly code: string; readonly init: Omit<Fields<ConnectionErrorInit>, "mayHaveReachedServer"> };

/** Everything the transport needs to know about one failed attempt, decided once by `classifyFailure` (retry.ts). */
export interface FailureVerdict {
  /** Whether the policy allows sending again (before the attempt limit and the budget). */
  readonly retry: boolean;
  readonly reason: string;
  /** Whether it uses up one of `maxAttempts`: a 429 whose Retry-After paces us does not. */
  readonly counts: boolean;
  /** How long the request's family pauses (a 429's Retry-After), if at all. */
  readonly pauseMs: number | undefined;
  /** The wait the server asked for: the retry waits at least this long. */
  readonly retryAfterMs: number | undefined;
  /** The server's wait replaces the backoff: it is at least the base delay (a `Retry-After: 0` would loop at full speed). */
  readonly paced: boolean;
  /** Whether the server may have acted on the request, so a write may have taken effect. */
  readonly mayHaveActed: boolean;
}

/** A failure with its verdict: all the decision and the caller's error are built from. */
export interface JudgedFailure {
  readonly failure: AttemptFailure;
  readonly verdict: FailureVerdict;
}

/** A {@link JudgedFailure} as a thrown value: the pacer and p-retry pass on Errors only. */
export class AttemptFailed extends Error implements JudgedFailure {
  constructor(
    readonly failure: AttemptFailure,
    readonly verdict: FailureVerdict,
  ) {
    super(failure.kind);
  }
}

/** The error a caller sees for a failure after `attempts` attempts; `note` says why retrying stopped. */
export function publicError({ failure, verdict }: JudgedFailure, attempts: number, note?: string): CloudPlatformError {
  switch (failure.kind) {
    case "status":
      return makeApiError({ ...failure.init, attempts, note, mayHaveActed: verdict.mayHaveActed });
    case "format":
      return failure.tooLarge
        ? new ResponseTooLargeError({ ...failure.init, attempts, note, mayHaveActed: verdict.mayHaveActed })
        : new ResponseFormatError({ ...failure.init, attempts, note, mayHaveActed: verdict.mayHaveActed });
    case "network":
      return new ConnectionError({ ...failure.init, mayHaveReachedServer: verdict.mayHaveActed, attempts, note });
  }
}
