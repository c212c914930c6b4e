/** A zone's delegation status, for the `getDelegationStatus` lookup (a rate-limited endpoint). */
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { optionalBoolean, optionalCount, optionalList, optionalStrings, optionalText, withAliases, withAnyOf, type Answer } from "../schema";

// The spec's camelCase address lists first; snake_case is read too.
const nameServerFields = withAliases(
  { ipv4Addresses: "ipv4_addresses", ipv6Addresses: "ipv6_addresses" },
  z
    .object({ name: optionalText, ipv4Addresses: optionalStrings, ipv6Addresses: optionalStrings })
    .transform((s) => ({
      /** Host name of the name server; null when not sent. */
      name: s.name,
      /** Its IPv4 addresses (`null` or absent read as none). */
      ipv4Addresses: s.ipv4Addresses,
      /** Its IPv6 addresses (`null` or absent read as none: a name server without IPv6). */
      ipv6Addresses: s.ipv6Addresses,
    })),
);

/** An authoritative name server of the zone. */
export interface AuthoritativeNameServer extends Answer<typeof nameServerFields> {}

const nameServerSchema: z.ZodType<AuthoritativeNameServer> = nameServerFields;

/** The fields of a delegation status, under the spec's names and the public ones. */
const DELEGATION_FIELDS = [
  "authoritative_name_servers",
  "service_authorized_count",
  "non_service_authorized_count",
  "gcore_authorized_count",
  "non_gcore_authorized_count",
  "is_whitelabel_delegation",
  "zone_exists",
];

/**
 * Every field open, as in the OpenAPI; a missing flag or count reads as `null`, never `false` or
 * `0`. The counts go by the spec's names; the public platform's `gcore_*` names are read too.
 */
export const delegationStatusSchema = withAnyOf(
  DELEGATION_FIELDS,
  "the delegation status fields",
  withAliases(
    { service_authorized_count: "gcore_authorized_count", non_service_authorized_count: "non_gcore_authorized_count" },
    z
      .object({
        authoritative_name_servers: optionalList(nameServerSchema),
        service_authorized_count: optionalCount,
        non_service_authorized_count: optionalCount,
        is_whitelabel_delegation: optionalBoolean,
        zone_exists: optionalBoolean,
      })
      .transform((w) => ({
        /** The zone's authoritative name servers as found in DNS. */
        authoritativeNameServers: w.authoritative_name_servers,
        /** Name servers of the platform among the authoritative ones; null when not reported. */
        serviceAuthorizedCount: w.service_authorized_count,
        /** Other name servers among the authoritative ones; null when not reported. */
        nonServiceAuthorizedCount: w.non_service_authorized_count,
        /** Whether the zone is delegated to white-label name servers of the platform; null when not reported. */
        isWhitelabelDelegation: w.is_whitelabel_delegation,
        /** Whether the zone exists on the platform; null when not reported. */
        zoneExists: w.zone_exists,
      })),
  ),
);

/** Delegation status of a zone. */
export interface DelegationStatus extends Answer<typeof delegationStatusSchema> {}

/** The DNS functions of the client. */
export interface DnsApi {
  /** Delegation status of zone `name`. */
  delegationStatus(name: string, options?: RequestOptions): Promise<DelegationStatus>;
}

/** Bind the DNS functions to a transport. */
export function dnsApi(t: Transport): DnsApi {
  return Object.freeze({
    async delegationStatus(name: string, options?: RequestOptions): Promise<DelegationStatus> {
      const res = await t.request({
        method: "GET",
        path: apiPath`/dns/v2/analyze/${name}/delegation-status`,
        options,
        response: delegationStatusSchema,
      });
      return res.data;
    },
  });
}
