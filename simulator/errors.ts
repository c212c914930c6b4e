/**
 * Per-product error bodies.
 *
 * Each product of the platform answers errors in its own shape (CONTRACT.md "Auth", spec
 * "Errors"): cloud and IAM use `{exception_class, message, request_id}`, storage, DNS and
 * streaming use `{error}`, and the WAAP reseller API uses RFC 7807 problem+json. Clients parse
 * the server's own words out of these shapes, so the simulator must produce exactly them; keeping
 * every shape in one module makes it impossible for one route to drift from the others.
 */

/** Product area of a request, derived from the first path segment. */
export type Product = "cloud" | "iam" | "storage" | "waap" | "dns" | "streaming" | "other";

/** Content type of the WAAP problem+json error responses. */
export const PROBLEM_JSON = "application/problem+json";

/**
 * An error a route throws to end the request with a given status and body.
 *
 * Why an exception: validation helpers deep inside a handler can abort the request without
 * every caller threading results back up.
 */
export class HttpError extends Error {
  /** HTTP status code. */
  readonly status: number;
  /** JSON body to send. */
  readonly body: unknown;
  /** Content type (defaults to application/json). */
  readonly contentType: string;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(status: number, body: unknown, contentType = "application/json", headers: Record<string, string> = {}) {
    super(`HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.contentType = contentType;
    this.headers = headers;
  }
}

/** Maps a request path to its product so auth and generic errors use that product's shape. */
export function productOf(path: string): Product {
  const first = path.split("/")[1] ?? "";
  switch (first) {
    case "cloud":
    case "iam":
    case "storage":
    case "waap":
    case "dns":
    case "streaming":
      return first;
    default:
      return "other";
  }
}

/** Cloud/IAM error body: `{exception_class, message, request_id}` plus optional extras. */
export function cloudError(
  status: number,
  exceptionClass: string,
  message: string,
  requestId: string,
  extra: Record<string, unknown> = {},
): HttpError {
  return new HttpError(status, { exception_class: exceptionClass, message, request_id: requestId, ...extra });
}

/** WAAP problem+json body (`type`, `title`, `status`, `detail`, optional `errors`). */
export function problem(
  status: number,
  type: string,
  title: string,
  detail: string,
  errors?: Array<{ loc: Array<string | number>; detail: string }>,
  headers: Record<string, string> = {},
): HttpError {
  const body: Record<string, unknown> = { type, title, status, detail };
  if (errors) body.errors = errors;
  return new HttpError(status, body, PROBLEM_JSON, headers);
}

/** `{error}` body used by storage, DNS, streaming and unknown paths. */
export function simpleError(status: number, message: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, { error: message }, "application/json", headers);
}

/** One error in each product's words. */
interface ProductError {
  readonly status: number;
  /** Cloud and IAM: `{exception_class, message, request_id}`. */
  readonly cloud: readonly [exceptionClass: string, message: string];
  /** WAAP: problem+json, or a text alone for `{detail}` (what its auth layer answers). */
  readonly waap: readonly [type: string, title: string, detail: string] | string;
  /** Every other product: `{error}`. */
  readonly error: string;
  readonly headers?: Record<string, string>;
}

function inProductShape(product: Product, requestId: string, e: ProductError): HttpError {
  const headers = e.headers ?? {};
  switch (product) {
    case "cloud":
    case "iam": {
      const [exceptionClass, message] = e.cloud;
      return new HttpError(e.status, { exception_class: exceptionClass, message, request_id: requestId }, "application/json", headers);
    }
    case "waap": {
      if (typeof e.waap === "string") return new HttpError(e.status, { detail: e.waap }, PROBLEM_JSON, headers);
      const [type, title, detail] = e.waap;
      return problem(e.status, type, title, detail, undefined, headers);
    }
    default:
      return simpleError(e.status, e.error, headers);
  }
}

/** 401 for a missing (`missing` true) or invalid token. */
export function unauthenticated(product: Product, missing: boolean, requestId: string): HttpError {
  return inProductShape(product, requestId, {
    status: 401,
    cloud: missing ? ["not_authenticated", "Authentication credentials were not provided."] : ["token_not_valid", "Given token not valid for any token type"],
    waap: "Auth token is missing or invalid",
    error: missing ? "Auth token is missing" : "Auth token is invalid",
  });
}

/** 403 for the read-only token attempting a write. */
export function forbidden(product: Product, requestId: string): HttpError {
  const message = "Permission denied";
  return inProductShape(product, requestId, { status: 403, cloud: ["ForbiddenError", message], waap: message, error: message });
}

/** 404; `message` is used where the shape has room for it. */
export function notFound(product: Product, message: string, requestId: string): HttpError {
  return inProductShape(product, requestId, {
    status: 404,
    cloud: ["NotFoundError", message],
    waap: ["http-not-found", "Not Found", "The resource is not found"],
    error: message,
  });
}

/** 501 for an endpoint played as not served (`unserved.ts`). */
export function notImplemented(product: Product, method: string, path: string, requestId: string): HttpError {
  const message = `${method} ${path} is not implemented`;
  return inProductShape(product, requestId, { status: 501, cloud: ["NotImplemented", message], waap: ["not-implemented", "Not Implemented", message], error: message });
}

/** 405. */
export function methodNotAllowed(product: Product, method: string, requestId: string): HttpError {
  return inProductShape(product, requestId, {
    status: 405,
    cloud: ["HTTPError", "HTTP 405: Method Not Allowed"],
    waap: ["http-method-not-allowed", "Method Not Allowed", `Method ${method} is not allowed`],
    error: `method ${method} not allowed`,
  });
}

/** 400 for a malformed request (bad JSON and the like). */
export function badRequest(product: Product, message: string, requestId: string): HttpError {
  return inProductShape(product, requestId, { status: 400, cloud: ["ValidationError", message], waap: ["http-bad-request", "Bad Request", message], error: message });
}

/** 429 with `Retry-After` in whole seconds. */
export function tooManyRequests(product: Product, retryAfterSeconds: number, requestId: string): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const message = `Rate limit exceeded, retry in ${seconds} s`;
  return inProductShape(product, requestId, {
    status: 429,
    cloud: ["TooManyRequests", message],
    waap: ["too-many-requests", "Too Many Requests", message],
    error: message,
    headers: { "Retry-After": String(seconds) },
  });
}

/** 503 of the error-rate fault. */
export function serviceUnavailable(product: Product, requestId: string): HttpError {
  const message = "Service temporarily unavailable (simulated fault)";
  return inProductShape(product, requestId, { status: 503, cloud: ["ServiceUnavailable", message], waap: ["service-unavailable", "Service Unavailable", message], error: message });
}

/** 500 for an unexpected exception inside a handler. */
export function internalError(product: Product, requestId: string): HttpError {
  const message = "Internal server error";
  return inProductShape(product, requestId, {
    status: 500,
    cloud: ["InternalServerError", message],
    waap: ["internal-server-error", "Internal server error.", message],
    error: message,
  });
}
