/**
 * DNS analysis: `GET /dns/v2/analyze/{name}/delegation-status`.
 *
 * Why: the `getDelegationStatus` lookup. The endpoint is rate limited; the transport waits out
 * 429s within the retry budget, honouring Retry-After.
 */
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { bodyObject, bool, numOr, objArray, str, strArray } from "../wire";

/** An authoritative name server of the zone. */
export interface AuthoritativeNameServer {
  /** Host name of the name server. */
  readonly name: string;
  /** Its IPv4 addresses. */
  readonly ipv4Addresses: readonly string[];
  /** Its IPv6 addresses. */
  readonly ipv6Addresses: readonly string[];
}

/** Delegation status of a zone. */
export interface DelegationStatus {
  /** The zone's authoritative name servers as found in DNS. */
  readonly authoritativeNameServers: readonly AuthoritativeNameServer[];
  /** Name servers of the platform among the authoritative ones. */
  readonly serviceAuthorizedCount: number;
  /** Other name servers among the authoritative ones. */
  readonly nonServiceAuthorizedCount: number;
  /** Whether the zone is delegated to white-label name servers of the platform. */
  readonly isWhitelabelDelegation: boolean;
  /** Whether the zone exists on the platform. */
  readonly zoneExists: boolean;
}

/** The DNS functions of the client. */
export interface DnsApi {
  /** Delegation status of zone `name`. */
  delegationStatus(name: string, options?: RequestOptions): Promise<DelegationStatus>;
}

/** Bind the DNS functions to a transport. */
export function dnsApi(t: Transport): DnsApi {
  return Object.freeze({
    async delegationStatus(name: string, options?: RequestOptions): Promise<DelegationStatus> {
      const res = await t.request({ method: "GET", path: apiPath`/dns/v2/analyze/${name}/delegation-status`, options });
      const w = bodyObject(res);
      return {
        authoritativeNameServers: objArray(w["authoritative_name_servers"]).map((s) => ({
          name: str(s["name"]),
          ipv4Addresses: strArray(s["ipv4Addresses"] ?? s["ipv4_addresses"]),
          ipv6Addresses: strArray(s["ipv6Addresses"] ?? s["ipv6_addresses"]),
        })),
        // The spec's names first; the public platform's names are accepted too.
        serviceAuthorizedCount: numOr(w["service_authorized_count"] ?? w["gcore_authorized_count"], 0),
        nonServiceAuthorizedCount: numOr(w["non_service_authorized_count"] ?? w["non_gcore_authorized_count"], 0),
        isWhitelabelDelegation: bool(w["is_whitelabel_delegation"]),
        zoneExists: bool(w["zone_exists"]),
      };
    },
  });
}
