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

/** 401 for a missing (`missing` true) or invalid token, in the product's shape. */
export function unauthenticated(product: Product, missing: boolean, requestId: string): HttpError {
  switch (product) {
    case "cloud":
    case "iam":
      return missing
        ? cloudError(401, "not_authenticated", "Authentication credentials were not provided.", requestId)
        : cloudError(401, "token_not_valid", "Given token not valid for any token type", requestId);
    case "waap":
      return new HttpError(401, { detail: "Auth token is missing or invalid" }, PROBLEM_JSON);
    default:
      return simpleError(401, missing ? "Auth token is missing" : "Auth token is invalid");
  }
}

/** 403 for the read-only token attempting a write, in the product's shape. */
export function forbidden(product: Product, requestId: string): HttpError {
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(403, "ForbiddenError", "Permission denied", requestId);
    case "waap":
      return new HttpError(403, { detail: "Permission denied" }, PROBLEM_JSON);
    default:
      return simpleError(403, "Permission denied");
  }
}

/** 404 in the product's shape; `message` is used where the shape has room for it. */
export function notFound(product: Product, message: string, requestId: string): HttpError {
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(404, "NotFoundError", message, requestId);
    case "waap":
      return problem(404, "http-not-found", "Not Found", "The resource is not found");
    default:
      return simpleError(404, message);
  }
}

/** 501 for an endpoint played as not served (`unserved.ts`), in the product's shape. */
export function notImplemented(product: Product, method: string, path: string, requestId: string): HttpError {
  const message = `${method} ${path} is not implemented`;
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(501, "NotImplemented", message, requestId);
    case "waap":
      return problem(501, "not-implemented", "Not Implemented", message);
    default:
      return simpleError(501, message);
  }
}

/** 405 in the product's shape. */
export function methodNotAllowed(product: Product, method: string, requestId: string): HttpError {
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(405, "HTTPError", "HTTP 405: Method Not Allowed", requestId);
    case "waap":
      return problem(405, "http-method-not-allowed", "Method Not Allowed", `Method ${method} is not allowed`);
    default:
      return simpleError(405, `method ${method} not allowed`);
  }
}

/** 400 for a malformed request (bad JSON and the like), in the product's shape. */
export function badRequest(product: Product, message: string, requestId: string): HttpError {
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(400, "ValidationError", message, requestId);
    case "waap":
      return problem(400, "http-bad-request", "Bad Request", message);
    default:
      return simpleError(400, message);
  }
}

/** 429 with `Retry-After` (whole seconds) in the product's shape. */
export function tooManyRequests(product: Product, retryAfterSeconds: number, requestId: string): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const headers = { "Retry-After": String(seconds) };
  const message = `Rate limit exceeded, retry in ${seconds} s`;
  switch (product) {
    case "cloud":
    case "iam":
      return new HttpError(429, { exception_class: "TooManyRequests", message, request_id: requestId }, "application/json", headers);
    case "waap":
      return problem(429, "too-many-requests", "Too Many Requests", message, undefined, headers);
    default:
      return simpleError(429, message, headers);
  }
}

/** 503 used by the error-rate fault, in the product's shape. */
export function serviceUnavailable(product: Product, requestId: string): HttpError {
  const message = "Service temporarily unavailable (simulated fault)";
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(503, "ServiceUnavailable", message, requestId);
    case "waap":
      return problem(503, "service-unavailable", "Service Unavailable", message);
    default:
      return simpleError(503, message);
  }
}

/** 500 for an unexpected exception inside a handler, in the product's shape. */
export function internalError(product: Product, requestId: string): HttpError {
  const message = "Internal server error";
  switch (product) {
    case "cloud":
    case "iam":
      return cloudError(500, "InternalServerError", message, requestId);
    case "waap":
      return problem(500, "internal-server-error", "Internal server error.", message);
    default:
      return simpleError(500, message);
  }
}
