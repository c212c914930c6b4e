/** Cloud regions, which lookups choose by name, capability and state. */
import type { OffsetPage, OffsetPagerOptions } from "../pagination";
import { offsetEndpoint } from "../pagedEndpoint";
import type { RequestOptions, Transport } from "../transport";
import { z } from "zod";
import { int, offsetPageWithoutCount, optionalInt, optionalList, optionalText, text, type Answer } from "../schema";

/** Filters of the region list. */
export interface ListRegionsParams {
  readonly limit?: number;
  readonly offset?: number;
  /** Case-insensitive exact match. */
  readonly displayName?: string;
  readonly orderBy?: "created_at.asc" | "created_at.desc" | "display_name.asc" | "display_name.desc";
  /** Only regions supporting this product. */
  readonly product?: "containers" | "inference";
  /** Replace a null volume-type list with the full list. */
  readonly showVolumeTypes?: boolean;
}

/** The spec's table is required, since lookups choose regions by it; the rest is open. */
export const regionSchema = z
  .object({
    id: int,
    display_name: text,
    state: text,
    access_level: text,
    zone: optionalText,
    country: optionalText,
    slug: optionalText,
    keystone_name: optionalText,
    has_kvm: z.boolean(),
    has_baremetal: z.boolean(),
    has_k8s: z.boolean(),
    has_dbaas: z.boolean(),
    available_volume_types: optionalList(z.string()),
    created_at: optionalText,
    metrics_database_id: optionalInt,
  })
  .transform((w) => ({
    /** Region id. */
    id: w.id,
    /** Human-readable region name. */
    displayName: w.display_name,
    /** Only ACTIVE regions are to be used. */
    state: w.state,
    /** `core` (latest hardware) or `edge` (lower cost). */
    accessLevel: w.access_level,
    /** Geographic zone label (AMERICAS, APAC, EMEA, ...), or null. */
    zone: w.zone,
    /** Country of the region, when reported. */
    country: w.country,
    /** Short machine name of the region, when reported. */
    slug: w.slug,
    /** The region's name in the identity service, when reported. */
    keystoneName: w.keystone_name,
    /** Whether virtual machines are offered. */
    hasKvm: w.has_kvm,
    /** Whether bare-metal servers are offered. */
    hasBaremetal: w.has_baremetal,
    /** Whether managed Kubernetes is offered. */
    hasK8s: w.has_k8s,
    /** Whether managed databases are offered. */
    hasDbaas: w.has_dbaas,
    /** Volume types offered in the region. */
    availableVolumeTypes: w.available_volume_types,
    /** Creation time, ISO 8601, as sent. */
    createdAt: w.created_at,
    /** Id of the region's metrics database, when reported. */
    metricsDatabaseId: w.metrics_database_id,
  }));

/** A cloud region (location). */
export interface Region extends Answer<typeof regionSchema> {}

/** The spec shows only `results`, so `count` is open. */
export const regionPageSchema = offsetPageWithoutCount(regionSchema);

/** The region functions of the client. */
export interface RegionsApi {
  list(params?: ListRegionsParams, options?: RequestOptions): Promise<OffsetPage<Region>>;
  listAll(params?: Omit<ListRegionsParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<Region[]>;
}

/** Bind the region functions to a transport. */
export function regionsApi(t: Transport): RegionsApi {
  return offsetEndpoint<[], ListRegionsParams, Region>(t, {
    path: () => "/cloud/v1/regions",
    query: { limit: "limit", offset: "offset", displayName: "display_name", orderBy: "order_by", product: "product", showVolumeTypes: "show_volume_types" },
    page: regionPageSchema,
    idOf: (r) => r.id,
  });
}
