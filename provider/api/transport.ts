/**
 * The seam between the product modules and the HTTP transport in client.ts.
 *
 * Why a separate file of types: product modules stay thin, typed functions that know paths and
 * shapes but not axios, retries or auth, and they can be exercised with any Transport.
 */
import type { HttpMethod, HeaderLookup } from "./retry";
import type { Query } from "./url";

/** Per-call options every API function accepts as its last argument. */
export interface RequestOptions {
  /** Cancels the request (and any retry wait); the call rejects with RequestAbortedError. */
  readonly signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout for this call, in ms. */
  readonly timeoutMs?: number | undefined;
}

/** One logical API call; the transport may make several attempts. */
export interface RequestSpec {
  readonly method: HttpMethod;
  /** Already-encoded path (build it with `apiPath`), without query string. */
  readonly path: string;
  readonly query?: Query | undefined;
  /** JSON body; sent as is (wire names). */
  readonly body?: unknown;
  readonly options?: RequestOptions | undefined;
}

/** A successful (2xx) response. */
export interface ApiResponse {
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number;
  /** Parsed JSON, `undefined` for an empty body, the text when not JSON. */
  readonly data: unknown;
  readonly header: HeaderLookup;
}

/** Sends a request with auth, retries and error mapping; resolves only for 2xx. */
export interface Transport {
  request(spec: RequestSpec): Promise<ApiResponse>;
}
