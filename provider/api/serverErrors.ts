/**
 * Parse the server's own words out of each product's error shape.
 *
 * Why per product: cloud/IAM send `{exception_class, message, request_id}`, storage, DNS and
 * streaming send `{error}`, the WAAP reseller sends problem+json `{type, title, detail,
 * errors[]}`. Each product's documented field is tried first, then the others, since accepting
 * both forms is cheap and servers drift.
 */
import type { ApiErrorDetail } from "./errors";
import { isRecord } from "./schema";
import type { Product } from "./url";

/** What was understood of an error body. */
export interface ParsedServerError {
  readonly message: string;
  readonly exceptionClass?: string | undefined;
  readonly requestId?: string | undefined;
  readonly errors: readonly ApiErrorDetail[];
}

const MESSAGE_FIELDS: Record<Product, readonly string[]> = {
  cloud: ["message", "detail", "error"],
  iam: ["message", "detail", "error"],
  storage: ["error", "message", "detail"],
  dns: ["error", "message", "detail"],
  streaming: ["error", "message", "detail"],
  waap: ["detail", "error", "message", "title"],
  other: ["message", "error", "detail", "title"],
};

/** Extract message, class, request id and field details from an error body (object or text). */
export function parseServerError(product: Product, body: unknown): ParsedServerError {
  if (!isRecord(body)) {
    const text = typeof body === "string" ? body.trim() : "";
    return { message: text.length > 500 ? `${text.slice(0, 500)}...` : text, errors: [] };
  }
  let message = "";
  for (const field of MESSAGE_FIELDS[product]) {
    const v = body[field];
    if (typeof v === "string" && v.trim() !== "") {
      message = v.trim();
      break;
    }
  }
  const exceptionClass = typeof body["exception_class"] === "string" ? body["exception_class"] : typeof body["type"] === "string" ? body["type"] : undefined;
  const requestId = typeof body["request_id"] === "string" && body["request_id"] ? body["request_id"] : undefined;
  return { message, exceptionClass, requestId, errors: [...problemErrors(body["errors"]), ...invalidFields(body["invalid_fields"])] };
}

/** problem+json `errors: [{loc: [...], detail}]`. */
function problemErrors(v: unknown): ApiErrorDetail[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((e) => ({
    loc: Array.isArray(e["loc"]) ? e["loc"].map(str) : e["loc"] !== undefined ? [str(e["loc"])] : [],
    detail: str(e["detail"] ?? e["msg"] ?? e["message"]),
  }));
}

/** Cloud `invalid_fields: {field: [messages]}`. */
function invalidFields(v: unknown): ApiErrorDetail[] {
  if (!isRecord(v)) return [];
  return Object.entries(v).map(([field, msgs]) => ({
    loc: [field],
    detail: Array.isArray(msgs) ? msgs.map(str).join(", ") : str(msgs),
  }));
}

function str(v: unknown): string {
  return typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
}
