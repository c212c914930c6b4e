/**
 * Cloud regions: `GET /cloud/v1/regions`.
 *
 * Why: lookups choose a region by name and capability (k8s, kvm) and must see its state, since
 * only ACTIVE regions are to be used.
 */
import { fetchAllOffset, type OffsetPage, type OffsetPagerOptions } from "../pagination";
import type { RequestOptions, Transport } from "../transport";
import { bodyList, bool, numOr, numOrNull, str, strArray, strOrNull, type WireObject } from "../wire";

/** A cloud region (location). */
export interface Region {
  /** Region id. */
  readonly id: number;
  /** Human-readable region name. */
  readonly displayName: string;
  /** Only ACTIVE regions are to be used. */
  readonly state: string;
  /** `core` (latest hardware) or `edge` (lower cost). */
  readonly accessLevel: string;
  /** Geographic zone label (AMERICAS, APAC, EMEA, ...), or null. */
  readonly zone: string | null;
  /** Country of the region, when reported. */
  readonly country: string | null;
  /** Short machine name of the region, when reported. */
  readonly slug: string | null;
  /** The region's name in the identity service, when reported. */
  readonly keystoneName: string | null;
  /** Whether virtual machines are offered. */
  readonly hasKvm: boolean;
  /** Whether bare-metal servers are offered. */
  readonly hasBaremetal: boolean;
  /** Whether managed Kubernetes is offered. */
  readonly hasK8s: boolean;
  /** Whether managed databases are offered. */
  readonly hasDbaas: boolean;
  /** Volume types offered in the region. */
  readonly availableVolumeTypes: readonly string[];
  /** Creation time, ISO 8601, as sent. */
  readonly createdAt: string | null;
  /** Id of the region's metrics database, when reported. */
  readonly metricsDatabaseId: number | null;
}

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

/** Map one wire region. */
export function regionFromWire(w: WireObject): Region {
  return {
    id: numOr(w["id"], 0),
    displayName: str(w["display_name"]),
    state: str(w["state"]),
    accessLevel: str(w["access_level"]),
    zone: strOrNull(w["zone"]),
    country: strOrNull(w["country"]),
    slug: strOrNull(w["slug"]),
    keystoneName: strOrNull(w["keystone_name"]),
    hasKvm: bool(w["has_kvm"]),
    hasBaremetal: bool(w["has_baremetal"]),
    hasK8s: bool(w["has_k8s"]),
    hasDbaas: bool(w["has_dbaas"]),
    availableVolumeTypes: strArray(w["available_volume_types"]),
    createdAt: strOrNull(w["created_at"]),
    metricsDatabaseId: numOrNull(w["metrics_database_id"]),
  };
}

/** The region functions of the client. */
export interface RegionsApi {
  /** One page of regions (`count` falls back to the page length when the server omits it). */
  list(params?: ListRegionsParams, options?: RequestOptions): Promise<OffsetPage<Region>>;
  /** Every region matching the filters. */
  listAll(params?: Omit<ListRegionsParams, "limit" | "offset">, pager?: OffsetPagerOptions, options?: RequestOptions): Promise<Region[]>;
}

/** Bind the region functions to a transport. */
export function regionsApi(t: Transport): RegionsApi {
  const list = async (params: ListRegionsParams = {}, options?: RequestOptions): Promise<OffsetPage<Region>> => {
    const res = await t.request({
      method: "GET",
      path: "/cloud/v1/regions",
      query: {
        limit: params.limit,
        offset: params.offset,
        display_name: params.displayName,
        order_by: params.orderBy,
        product: params.product,
        show_volume_types: params.showVolumeTypes,
      },
      options,
    });
    const page = bodyList(res);
    return { count: page.count, results: page.results.map(regionFromWire) };
  };
  return { list, listAll: (params = {}, pager = {}, options) => fetchAllOffset((p) => list({ ...params, ...p }, options), pager) };
}
