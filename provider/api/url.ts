/** URLs, so that a user-supplied name holding `/`, `?` or `..` never addresses another resource. */
import { CloudPlatformError, ConfigurationError } from "./errors";
import { sourceOf, type OptionSources } from "./optionNames";

/** A value accepted in a query string; arrays become repeated keys (`key=a&key=b`). */
export type QueryScalar = string | number | boolean;
/** A query parameter value; `undefined` and `null` are left out. */
export type QueryValue = QueryScalar | readonly QueryScalar[] | null | undefined;
/** Query parameters by their wire (snake_case) names. */
export type Query = Readonly<Record<string, QueryValue>>;

const PRODUCTS = ["cloud", "iam", "storage", "dns", "streaming", "waap"] as const;

/** An API product: the first segment of its paths. Each has its own error shape and rate limits. */
export type Product = (typeof PRODUCTS)[number] | "other";

/** The product a path belongs to. */
export function productOf(path: string): Product {
  const first = path.split("/").find((s) => s !== "") ?? "";
  return PRODUCTS.find((p) => p === first) ?? "other";
}

/** Every interpolated value is one encoded path segment; empty, `.` and `..` are refused. */
export function apiPath(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += encodeSegment(value) + (strings[i + 1] ?? "");
  });
  return out;
}

/** Refuses values that cannot name a single resource. */
export function encodeSegment(value: string | number): string {
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new CloudPlatformError(`Invalid path parameter ${String(value)}: expected a finite number`);
  }
  const text = String(value);
  if (text === "" || text === "." || text === "..") {
    throw new CloudPlatformError(`Invalid path parameter ${JSON.stringify(text)}: it must name exactly one resource`);
  }
  return encodeURIComponent(text);
}

/** "" or a string starting with `?`; arrays as repeated keys. */
export function serializeQuery(query: Query | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const items: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const item of items) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

/** Options of {@link checkBaseUrl}. */
export interface BaseUrlOptions {
  /** Off by default: over plain HTTP the key travels in cleartext. */
  readonly allowInsecureHttp?: boolean | string | undefined;
  /** Where the user sets each option, as the errors name it. */
  readonly sources?: OptionSources | undefined;
}

/** The base URL without a trailing slash; `http://` only to loopback unless `allowInsecureHttp`. */
export function checkBaseUrl(value: string | undefined, options: BaseUrlOptions = {}): string {
  const source = (option: "baseUrl" | "apiKey" | "allowInsecureHttp") => sourceOf(option, options.sources);
  const how = `set ${source("baseUrl")}`;
  if (typeof value !== "string" || value.trim() === "") {
    throw new ConfigurationError(`No API base URL is configured (there is no default host): ${how}.`);
  }
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    // Not echoed: a value that is no URL may be a key pasted into the wrong setting.
    throw new ConfigurationError(`The API base URL is not a valid URL (its value is not printed): ${how} to an http(s) URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`The API base URL must use http or https, got ${url.protocol}: ${how}.`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`The API base URL must not contain credentials; pass the key as ${source("apiKey")} instead.`);
  }
  if (url.search || url.hash) {
    throw new ConfigurationError(`The API base URL must not contain a query string or fragment: ${how}.`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !parseAllowInsecureHttp(options.allowInsecureHttp, options.sources)) {
    throw new ConfigurationError(
      `The API base URL uses plain http to ${url.host}, so the API key would travel in cleartext: use https, ` +
        `or, if that network is trusted, opt in by setting ${source("allowInsecureHttp")} to true ` +
        `(plain http to localhost, 127.0.0.1 and ::1 is always allowed).`,
    );
  }
  return url.toString().replace(/\/+$/, "");
}

/** True for this machine's own addresses: `localhost`, 127.0.0.0/8 and `::1`. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "[::1]" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Anything but true/false/1/0 is refused: a typo in this opt-in must not be guessed. */
export function parseAllowInsecureHttp(value: boolean | string | undefined, sources?: OptionSources): boolean {
  if (value === undefined || typeof value === "boolean") return value ?? false;
  const v = value.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0" || v === "") return false;
  throw new ConfigurationError(
    `${sourceOf("allowInsecureHttp", sources)} must be true or false, got ${JSON.stringify(value.slice(0, 20))}.`,
  );
}
