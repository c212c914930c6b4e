/**
 * An API client without sockets: the real product modules and the real response mapping
 * (`mapAnswer`: status, schema check, camelCase transform) over a transport that answers from
 * memory and records every request.
 *
 * Why: tests of what sits above the transport (the pagers, the paged lookups) over thousands of
 * items spend seconds of CPU on sockets and a simulator, and a busy machine (a first `make test`
 * compiling the Pulumi CLI beside them) turned that into a timeout. Here the same cases cost
 * milliseconds; the end-to-end figure over a real socket is a benchmark (`make bench`, lookups).
 */
import { clientOver, type CloudPlatformClient } from "../../../provider/api/client";
import { mapAnswer } from "../../../provider/api/responseMapping";
import type { RequestSpec, Transport } from "../../../provider/api/transport";
import type { Query } from "../../../provider/api/url";

/** One request as the transport received it: method, path and query values as strings. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
}

/** What the in-memory API answers: a status and a JSON value (sent as its text). */
export interface MemoryAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** A client over an in-memory API, and the requests it sent. */
export interface MemoryClient {
  readonly client: CloudPlatformClient;
  readonly requests: RecordedRequest[];
}

/** Query values as the wire would carry them: strings, lists repeated, absent values dropped. */
function wireQuery(query: Query | undefined): Record<string, string | readonly string[]> {
  const out: Record<string, string | readonly string[]> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    out[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

/** A client whose every request is answered by `answer`; unknown routes should answer 404. */
export function memoryClient(answer: (request: RecordedRequest) => MemoryAnswer): MemoryClient {
  const requests: RecordedRequest[] = [];
  const transport: Transport & { readonly baseUrl: string } = {
    baseUrl: "memory://api",
    async request<T>(spec: RequestSpec<T>) {
      const request: RecordedRequest = { method: spec.method, path: spec.path, query: wireQuery(spec.query) };
      requests.push(request);
      const { status, body } = answer(request);
      const text = body === undefined ? "" : JSON.stringify(body);
      const mapped = mapAnswer<T>({
        method: spec.method,
        path: spec.path,
        response: spec.response,
        status,
        header: (name) => (name.toLowerCase() === "content-type" ? "application/json" : undefined),
        body: { text, bytes: Buffer.byteLength(text), overflow: false },
        maxResponseBytes: Number.MAX_SAFE_INTEGER,
        nowMs: 0,
        apiKeySource: "apiKey",
        baseUrlSource: "baseUrl",
      });
      if (!mapped.ok) throw new Error(`${spec.method} ${spec.path}: ${JSON.stringify(mapped.failure)}`);
      return { method: spec.method, path: spec.path, status, data: mapped.data, header: () => undefined };
    },
  };
  return { client: clientOver(transport), requests };
}

/**
 * An offset-paged list served from `items` (`limit`/`offset` in, `{count, results}` out, as
 * the cloud lists answer), optionally filtered and sorted per request.
 */
export function offsetList<T>(items: readonly T[], limitCap = 1000): (query: RecordedRequest["query"]) => MemoryAnswer {
  return (query) => {
    const limit = Math.min(Number(query.limit ?? 100), limitCap);
    const offset = Number(query.offset ?? 0);
    return { status: 200, body: { count: items.length, results: items.slice(offset, offset + limit) } };
  };
}
