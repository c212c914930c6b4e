/**
 * The API client over one transport, so auth, timeouts, retries, error mapping and key
 * redaction are each decided once and no product module can forget one.
 */
import { AttemptFailed } from "./attemptFailure";
import { anySignal } from "./abort";
import { cloudApi, type CloudApi } from "./cloud";
import { resolveClientOptions, type ClientOptions } from "./clientOptions";
import { dnsApi, type DnsApi } from "./dns/analyze";
import { createHttpAttempt } from "./httpAttempt";
import { iamApi, type IamApi } from "./iam/clients";
import { mapAnswer } from "./responseMapping";
import { withRetries } from "./retryLoop";
import { storageApi, type StorageApi } from "./storage/notifications";
import { streamingApi, type StreamingApi } from "./streaming/aiTasks";
import type { ApiResponse, RequestSpec, Transport } from "./transport";
import { parseResellerPaths, waapApi, type ResellerPaths, type WaapApi } from "./waap/reseller";

export { DEFAULT_TIMEOUT_MS } from "./clientOptions";
export type { ClientLogger, ClientOptions, RetryEvent } from "./clientOptions";

/** The API client, grouped by product as the API is. */
export interface CloudPlatformClient {
  /** No trailing slash. */
  readonly baseUrl: string;
  readonly cloud: CloudApi;
  readonly storage: StorageApi;
  readonly dns: DnsApi;
  readonly waap: WaapApi;
  readonly streaming: StreamingApi;
  readonly iam: IamApi;
  /** The same client with every request also cancelled by `signal`, given once instead of per call. */
  withSignal(signal: AbortSignal | undefined): CloudPlatformClient;
}

/** Throws ConfigurationError naming the option when the base URL or key is missing or malformed. */
export function createClient(options: ClientOptions): CloudPlatformClient {
  const transport = createTransport(options);
  return clientOver(transport, parseResellerPaths(options.resellerPaths, options.optionSources));
}

/** Internal: lets tests above the transport run on an in-memory one, with no socket. */
export function clientOver(transport: Transport & { readonly baseUrl: string }, resellerPaths: ResellerPaths = "auto"): CloudPlatformClient {
  const client: CloudPlatformClient = Object.freeze({
    baseUrl: transport.baseUrl,
    cloud: cloudApi(transport),
    storage: storageApi(transport),
    dns: dnsApi(transport),
    waap: waapApi(transport, resellerPaths),
    streaming: streamingApi(transport),
    iam: iamApi(transport),
    withSignal: (signal: AbortSignal | undefined) => (signal ? clientOver(withSignal(transport, signal), resellerPaths) : client),
  });
  return client;
}

/** `transport` with `signal` added to every request's own signal (either one cancels it). */
function withSignal(transport: Transport & { readonly baseUrl: string }, signal: AbortSignal): Transport & { readonly baseUrl: string } {
  return {
    baseUrl: transport.baseUrl,
    request: (spec) => {
      const own = spec.options?.signal;
      return transport.request({ ...spec, options: { ...spec.options, signal: own ? anySignal([own, signal]) : signal } });
    },
  };
}

/** Each request runs the retry loop over HTTP attempts, each mapped to data or a failure record. */
export function createTransport(options: ClientOptions): Transport & { readonly baseUrl: string } {
  const o = resolveClientOptions(options);
  const send = createHttpAttempt(o);

  async function attemptOnce<T>(spec: RequestSpec<T>, shownPath: string): Promise<ApiResponse<T>> {
    const answer = await send(spec, shownPath);
    const mapped = mapAnswer({
      ...answer,
      method: spec.method,
      path: shownPath,
      response: spec.response,
      maxResponseBytes: o.maxResponseBytes,
      nowMs: o.now(),
      scrub: o.scrub,
      scrubDeep: o.scrubDeep,
      apiKeySource: o.apiKeySource,
      baseUrlSource: o.baseUrlSource,
    });
    if (!mapped.ok) throw new AttemptFailed(mapped.failure);
    return { method: spec.method, path: shownPath, status: answer.status, data: mapped.data, header: answer.header };
  }

  return {
    baseUrl: o.baseUrl,
    request: (spec) => {
      // Redacted once, here.
      const shownPath = o.scrub(spec.path);
      return withRetries(o, spec, shownPath, () => attemptOnce(spec, shownPath));
    },
  };
}
