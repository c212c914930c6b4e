/**
 * The DNS delegation status as each dialect answers it (CONTRACT.md "Dialects").
 *
 * Each function takes the answer the regular dialect builds and returns the answer to send:
 * unchanged for "regular", shaped as the public material allows for "public-api" (`dialect.ts`).
 */
import { isPublicApi, nilIfEmpty, withFuture, type SimulatorDialect } from "../dialect";
import type { RouteResult } from "../routeResult";
import type { JsonObject } from "../state";

/**
 * The delegation status answer. "public-api", as the DNS API (a Go server) sends it: the counts
 * under their public names `gcore_authorized_count` / `non_gcore_authorized_count` (dns OpenAPI
 * `DelegationStatusScanResult`) instead of the spec's `service_*` names, an empty address list
 * (a name server without IPv6) and an empty server list as `null`, an unknown field, and the
 * JSON labelled `Content-Type: text/plain; charset=utf-8`.
 */
export function delegationAnswer(dialect: SimulatorDialect, status: JsonObject): RouteResult {
  if (!isPublicApi(dialect)) return { status: 200, body: status };
  const {
    authoritative_name_servers: servers,
    service_authorized_count: authorized,
    non_service_authorized_count: nonAuthorized,
    ...rest
  } = status;
  const list = Array.isArray(servers) ? (servers as JsonObject[]) : [];
  const body = withFuture({
    authoritative_name_servers: nilIfEmpty(
      list.map((ns) => ({
        ...ns,
        ipv4Addresses: nilIfEmpty(ns.ipv4Addresses as string[] | undefined),
        ipv6Addresses: nilIfEmpty(ns.ipv6Addresses as string[] | undefined),
      })),
    ),
    gcore_authorized_count: authorized,
    non_gcore_authorized_count: nonAuthorized,
    ...rest,
  });
  return { status: 200, body, contentType: "text/plain" };
}
