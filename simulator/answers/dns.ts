/**
 * The DNS delegation status in each dialect (CONTRACT.md "Dialects" row 4).
 */
import { nilIfEmpty, withFuture, type ByDialect } from "../dialect";
import type { RouteResult } from "../routeResult";
import type { JsonObject } from "../state";

/** How a dialect shapes the DNS API's answers. */
export interface DnsAnswers {
  /** The delegation status answer (a whole result: "public-api" changes its content type). */
  delegation(status: JsonObject): RouteResult;
}

/**
 * As the DNS API (a Go server) sends it: the counts under their public names, empty lists as
 * `null`, and the JSON labelled `text/plain`.
 */
function publicDelegation(status: JsonObject): RouteResult {
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

/** The DNS answers of each dialect. */
export const dnsAnswers: ByDialect<DnsAnswers> = {
  regular: { delegation: (status) => ({ status: 200, body: status }) },
  "public-api": { delegation: publicDelegation },
};
