/**
 * The API client over one transport, so auth, timeouts, retries, error mapping and key
 * redaction are each decided once and no product module can forget one.
 */
import { anySignal } from "./abort";
import { createAttempt } from "./attempt";
import { cloudApi, type CloudApi } from "./cloud";
import { resolveClientOptions, type ClientOptions } from "./clientOptions";
import { dnsApi, type DnsApi } from "./dns/analyze";
import { createHttpAttempt } from "./httpAttempt";
import { iamApi, type IamApi } from "./iam/clients";
import { withRetries } from "./retryLoop";
import { storageApi, type StorageApi } from "./storage/notifications";
import { streamingApi, type StreamingApi } from "./streaming/aiTasks";
import type { Transport } from "./transport";
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

/** Each request runs the retry loop over attempts, each sent by HTTP and mapped to data or a judged failure. */
export function createTransport(options: ClientOptions): Transport & { readonly baseUrl: string } {
  const { http, mapping, loop, scrub } = resolveClientOptions(options);
  const attempt = createAttempt(createHttpAttempt(http), { mapping, policy: loop.policy, now: loop.now, scrub });
  return {
    baseUrl: http.baseUrl,
    request: (spec) => {
      const shownPath = scrub(spec.path);
      return withRetries(loop, spec, shownPath, () => attempt(spec, shownPath));
    },
  };
}
