/** The seam that keeps product modules free of axios, retries and auth, and testable over any Transport. */
import type { HttpMethod, HeaderLookup } from "./retry";
import type { ResponseSchema } from "./schema";
import type { Query } from "./url";

/** Per-call options every API function accepts as its last argument. */
export interface RequestOptions {
  /** Cancels the request (and any retry wait); the call rejects with RequestAbortedError. */
  readonly signal?: AbortSignal | undefined;
  /** Overrides the client's per-attempt timeout for this call, in ms. */
  readonly timeoutMs?: number | undefined;
}

/** One logical API call; the transport may make several attempts. */
export interface RequestSpec<T = unknown> {
  readonly method: HttpMethod;
  /** Already-encoded path (build it with `apiPath`), without query string. */
  readonly path: string;
  readonly query?: Query | undefined;
  /** JSON body; sent as is (wire names). */
  readonly body?: unknown;
  readonly options?: RequestOptions | undefined;
  /** The 2xx body's schema, or `null` for the spec's 204 (a non-JSON body is then a ResponseFormatError). */
  readonly response: ResponseSchema<T> | null;
}

/** A successful (2xx) response whose body passed the call's schema. */
export interface ApiResponse<T = unknown> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number;
  /** The schema's output; `undefined` for a call that expects no body. */
  readonly data: T;
  readonly header: HeaderLookup;
}

/** Sends a request with auth, retries and error mapping; resolves only for 2xx. */
export interface Transport {
  request<T>(spec: RequestSpec<T>): Promise<ApiResponse<T>>;
}
