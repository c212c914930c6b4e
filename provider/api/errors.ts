/**
 * The API client's one error hierarchy: callers branch on class and fields, never on text.
 * Messages name the operation, the status and the server's words, never the API key.
 */

/** Base class of every error this package throws, so callers can catch all of them at once. */
export class CloudPlatformError extends Error {
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The message of anything thrown: an Error's message, else its text. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * An option was set wrongly: the client's (no base URL, no key, a malformed URL, a bad `retry`
 * policy) or a waiter's (a negative timeout, a bad poll schedule). Thrown before any request,
 * naming the option and the values it takes, since no silent default replaces a bad value.
 */
export class ConfigurationError extends CloudPlatformError {}

/** One field-level problem reported by the server (reseller 422 `errors[]`, cloud `invalid_fields`). */
export interface ApiErrorDetail {
  /** Location path as sent by the server, e.g. `["query", "limit"]`. */
  readonly loc: readonly string[];
  /** The server's words for this field. */
  readonly detail: string;
}

/** What every error about one request names: the call, and how many attempts it took. */
interface RequestFacts {
  readonly method: string;
  /** Without the query string (query values may be sensitive), the key redacted. */
  readonly path: string;
  readonly attempts?: number | undefined;
  /** Why retrying stopped (with the number of attempts), appended to the message. */
  readonly note?: string | undefined;
  /** The transport's verdict on the last attempt: whether the server may have acted on it. */
  readonly mayHaveActed: boolean;
}

/**
 * One request failed, whichever way: an error status, a malformed answer, no answer, or the
 * caller's cancellation. The common base, so a caller reads the call and the attempts made
 * without knowing which way it failed.
 */
export class RequestError extends CloudPlatformError {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Request path without query string, the key redacted. */
  readonly path: string;
  /** Attempts made before giving up (1 when not retried). */
  readonly attempts: number;
  /**
   * Whether the server may have acted on the request (a 5xx, a malformed answer, no answer after
   * it left): a write that failed so may have taken effect, and is reconciled by reading back.
   */
  readonly mayHaveActed: boolean;

  /** @internal */
  constructor(message: string, facts: RequestFacts) {
    super(message);
    this.method = facts.method;
    this.path = facts.path;
    this.attempts = facts.attempts ?? 1;
    this.mayHaveActed = facts.mayHaveActed;
  }
}

/** The end of a message: why retrying stopped, which says how many attempts were made, or else their number. */
function tailOf(init: Pick<RequestFacts, "attempts" | "note">): string {
  if (init.note) return ` ${init.note}`;
  return init.attempts && init.attempts > 1 ? ` (${init.attempts} attempts)` : "";
}

/** Everything known about a failed HTTP exchange; the input of {@link makeApiError}. */
export interface ApiErrorInit extends RequestFacts {
  readonly status: number;
  /** The server's message parsed from the product's error shape ("" if none). */
  readonly serverMessage: string;
  readonly exceptionClass?: string | undefined;
  /** From the body `request_id` or the `X-Request-Id` header. */
  readonly requestId?: string | undefined;
  readonly errors?: readonly ApiErrorDetail[] | undefined;
  readonly body?: unknown;
  readonly retryAfterMs?: number | undefined;
  /** Where the user sets the API key, named by a 401's hint (default: the client option `apiKey`). */
  readonly apiKeySource?: string | undefined;
}

/**
 * The server answered with a non-success status. Subclasses name the status family; this class
 * is used as is for statuses without one (e.g. 405).
 */
export class ApiError extends RequestError {
  /** HTTP status code. */
  readonly status: number;
  /** The server's own message (cloud `message`, storage/dns/streaming `error`, reseller `detail`). */
  readonly serverMessage: string;
  /** Cloud `exception_class` or problem+json `type`, when the server sent one. */
  readonly exceptionClass: string | undefined;
  /** Request id for support tickets. */
  readonly requestId: string | undefined;
  /** Field-level details (reseller 422 `errors[]`). */
  readonly errors: readonly ApiErrorDetail[];
  /** The redacted response body, for debugging. */
  readonly body: unknown;
  /** The message's "what to do" sentence, which a layer knowing more may replace. */
  readonly hint: string | undefined;

  /** @internal */
  constructor(init: ApiErrorInit) {
    const hint = hintFor(new.target, init.apiKeySource);
    super(formatApiErrorMessage(new.target.name, init, hint), init);
    this.hint = hint;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.exceptionClass = init.exceptionClass;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.body = init.body;
  }
}

/** 400 or 422: the request was malformed or failed validation; retrying cannot help. */
export class ValidationError extends ApiError {}
/** 401: the key is missing or invalid. The message says how to set it. */
export class AuthenticationError extends ApiError {}
/** 403: the key is valid but lacks permission for this operation. */
export class PermissionDeniedError extends ApiError {}
/** 404: the addressed resource does not exist (handlers treat it as "deleted elsewhere"). */
export class NotFoundError extends ApiError {}
/** 409: a conflicting resource or operation exists (a duplicate event, a cluster already upgrading). */
export class ConflictError extends ApiError {}
/** 500-599: the server failed; GETs were already retried before this is thrown. */
export class ServerError extends ApiError {}

/** 429: too many requests; carries the delay the server asked for. */
export class RateLimitError extends ApiError {
  /** The server's `Retry-After`/`Retry-After-Ms`, in milliseconds, if sent. */
  readonly retryAfterMs: number | undefined;
  /** @internal */
  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** Build the status-specific {@link ApiError} subclass for a failed response. */
export function makeApiError(init: ApiErrorInit): ApiError {
  const s = init.status;
  if (s === 400 || s === 422) return new ValidationError(init);
  if (s === 401) return new AuthenticationError(init);
  if (s === 403) return new PermissionDeniedError(init);
  if (s === 404) return new NotFoundError(init);
  if (s === 409) return new ConflictError(init);
  if (s === 429) return new RateLimitError(init);
  if (s >= 500 && s <= 599) return new ServerError(init);
  return new ApiError(init);
}

function hintFor(cls: Function, apiKeySource: string | undefined): string | undefined {
  if (cls === AuthenticationError) return `The API key is missing or invalid: set it with ${apiKeySource ?? "the client option `apiKey`"}.`;
  if (cls === PermissionDeniedError) {
    return "The API key is valid but lacks permission for this operation; use a key whose role allows it.";
  }
  return undefined;
}

/** `POST /cloud/v2/... failed (400 ValidationError): <server words> [request id ...]`. */
function formatApiErrorMessage(className: string, init: ApiErrorInit, hint: string | undefined): string {
  let text = `${init.method} ${init.path} failed (${init.status} ${className})`;
  const words = init.serverMessage.trim();
  text += words ? `: ${words}` : ": the server gave no message";
  if (init.exceptionClass && init.exceptionClass !== className && !words.includes(init.exceptionClass)) {
    text += ` (${init.exceptionClass})`;
  }
  const details = (init.errors ?? []).map((e) => (e.loc.length ? `${e.loc.join(".")}: ${e.detail}` : e.detail));
  if (details.length) text += ` [${details.join("; ")}]`;
  if (hint) text += ` ${hint}`;
  text += tailOf(init);
  if (init.requestId) text += ` [request id ${init.requestId}]`;
  return text;
}

/** Input of {@link ConnectionError}. */
export interface ConnectionErrorInit extends Omit<RequestFacts, "mayHaveActed"> {
  readonly target: string;
  readonly code: string;
  /** The underlying error message, already redacted. */
  readonly detail: string;
  readonly mayHaveReachedServer: boolean;
  readonly timedOut: boolean;
}

/**
 * No HTTP response arrived. `mayHaveReachedServer` tells a caller whether a write may have
 * taken effect: if true, reconcile by reading before doing anything else.
 */
export class ConnectionError extends RequestError {
  /** `host:port` of the server, to tell a wrong base URL from a down server. */
  readonly target: string;
  /** Node/axios error code (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, ...). */
  readonly code: string;
  /** True when the client's timeout fired. */
  readonly timedOut: boolean;

  /** @internal */
  constructor(init: ConnectionErrorInit) {
    const what = init.timedOut ? "timed out" : `connection error ${init.code}`;
    const reach = init.mayHaveReachedServer
      ? "the request may have reached the server, so a write may have taken effect"
      : "the request never reached the server";
    super(`${init.method} ${init.path} failed (${what} talking to ${init.target}): ${init.detail}; ${reach}.${tailOf(init)}`, { ...init, mayHaveActed: init.mayHaveReachedServer });
    this.target = init.target;
    this.code = init.code;
    this.timedOut = init.timedOut;
  }

  /** False only when the request certainly never reached the server; true means "reconcile by reading" ({@link RequestError.mayHaveActed}). */
  get mayHaveReachedServer(): boolean {
    return this.mayHaveActed;
  }
}

/** The caller's AbortSignal cancelled the request; nothing is retried after this. */
export class RequestAbortedError extends RequestError {
  /** @internal */
  constructor(method: string, path: string, attempts = 1) {
    super(`${method} ${path} was cancelled by the caller; the request may have reached the server.`, { method, path, attempts, mayHaveActed: true });
  }
}

/** Input of {@link ResponseFormatError}. */
export interface ResponseFormatErrorInit extends RequestFacts {
  readonly status: number;
  readonly field: string;
  /** E.g. `expected string, got null`. */
  readonly problem: string;
  readonly received: string;
}

/**
 * A success status whose body is not the documented answer. Not an {@link ApiError}, so it is
 * never read as "gone"; GETs are retried on it, writes are not (they may have taken effect).
 */
export class ResponseFormatError extends RequestError {
  /** HTTP status of the answer. */
  readonly status: number;
  /** Where the body is wrong (`results[0].version`, or `(body)`). */
  readonly field: string;
  /** What came instead, cut short and redacted. */
  readonly received: string;

  /** @internal */
  constructor(init: ResponseFormatErrorInit) {
    const where = init.field === "(body)" ? "" : `field ${init.field}: `;
    super(`${init.method} ${init.path} returned ${init.status} with an unexpected body: ${where}${init.problem}; received ${init.received}.${tailOf(init)}`, init);
    this.status = init.status;
    this.field = init.field;
    this.received = init.received;
  }
}

/** The answer exceeded `maxResponseBytes` (default 64 MiB); not retried, it would come again. */
export class ResponseTooLargeError extends ResponseFormatError {}

/** Paging did not end within `maxPages`; an error because a cut list would read as complete. */
export class PaginationLimitError extends CloudPlatformError {
  /** @internal */
  constructor(
    /** The cap that was reached. */
    readonly maxPages: number,
    /** What was being listed, e.g. `GET /streaming/ai/tasks`, when known. */
    readonly what: string,
  ) {
    super(`${what} still announced a next page after ${maxPages} pages (maxPages); stopped instead of listing forever. Narrow the query or raise maxPages.`);
  }
}

/**
 * A paged list changed too much between pages, on every read, for the pager to find its place;
 * an error because such a list may repeat or miss items.
 */
export class ListChangedError extends CloudPlatformError {
  /** @internal */
  constructor(
    /** What was being listed, e.g. `GET /cloud/v1/instances/1/76`. */
    readonly what: string,
    /** How many times the listing was read from its start. */
    readonly attempts: number,
  ) {
    super(
      `${what} changed by more than a few items between two pages on each of ${attempts} reads (items were added or removed while it was listed); ` +
        "stopped instead of returning a list that could repeat or miss items. Try again, or narrow the query (a filter, a larger pageSize).",
    );
  }
}
