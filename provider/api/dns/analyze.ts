/**
 * DNS analysis: `GET /dns/v2/analyze/{name}/delegation-status`.
 *
 * Why: the `getDelegationStatus` lookup. The endpoint is rate limited; the transport waits out
 * 429s within the retry budget, honouring Retry-After.
 */
import type { RequestOptions, Transport } from "../transport";
import { apiPath } from "../url";
import { z } from "zod";
import { count, readonlyList, text, type Answer } from "../schema";

const nameServerFields = z.preprocess(
  // The spec's camelCase address lists first; snake_case is accepted too.
  (v) => (isRecord(v) ? { ...v, ipv4Addresses: v["ipv4Addresses"] ?? v["ipv4_addresses"], ipv6Addresses: v["ipv6Addresses"] ?? v["ipv6_addresses"] } : v),
  z
    .object({ name: text, ipv4Addresses: z.array(z.string()).transform(readonlyList), ipv6Addresses: z.array(z.string()).transform(readonlyList) })
    .transform((s) => ({
      /** Host name of the name server. */
      name: s.name,
      /** Its IPv4 addresses. */
      ipv4Addresses: s.ipv4Addresses,
      /** Its IPv6 addresses. */
      ipv6Addresses: s.ipv6Addresses,
    })),
);

/** An authoritative name server of the zone. */
export interface AuthoritativeNameServer extends Answer<typeof nameServerFields> {}

const nameServerSchema: z.ZodType<AuthoritativeNameServer> = nameServerFields;

/**
 * The delegation status: every field of the spec's table is required (a missing `zone_exists`
 * or name server list must not read as "no zone" or "no name servers"). The count fields go by
 * the spec's names; the public platform's `gcore_*` names are accepted too.
 */
export const delegationStatusSchema = z.preprocess(
  (v) =>
    isRecord(v)
      ? {
          ...v,
          service_authorized_count: v["service_authorized_count"] ?? v["gcore_authorized_count"],
          non_service_authorized_count: v["non_service_authorized_count"] ?? v["non_gcore_authorized_count"],
        }
      : v,
  z
    .object({
      authoritative_name_servers: z.array(nameServerSchema).transform(readonlyList),
      service_authorized_count: count,
      non_service_authorized_count: count,
      is_whitelabel_delegation: z.boolean(),
      zone_exists: z.boolean(),
    })
    .transform((w) => ({
      /** The zone's authoritative name servers as found in DNS. */
      authoritativeNameServers: w.authoritative_name_servers,
      /** Name servers of the platform among the authoritative ones. */
      serviceAuthorizedCount: w.service_authorized_count,
      /** Other name servers among the authoritative ones. */
      nonServiceAuthorizedCount: w.non_service_authorized_count,
      /** Whether the zone is delegated to white-label name servers of the platform. */
      isWhitelabelDelegation: w.is_whitelabel_delegation,
      /** Whether the zone exists on the platform. */
      zoneExists: w.zone_exists,
    })),
);

/** Delegation status of a zone. */
export interface DelegationStatus extends Answer<typeof delegationStatusSchema> {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
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
