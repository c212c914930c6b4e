/**
 * Whether the quota holds a new node pool: an upgrade creates new nodes before removing the old
 * (spec "Limits"), so `K8sClusterUpgrade` asks at preview rather than fail minutes into a task.
 * The answer (OpenAPI `K8sClusterQuotaResponseSerializer`; the Python SDK's `K8SClusterPoolQuota`)
 * holds `<quota>_limit|usage|requested` per exceeded quota, `{}` when none; unknown quotas are
 * read the same way, keys of another shape ignored.
 */
import { z } from "zod";
import { apiPath } from "../url";
import type { RequestOptions, Transport } from "../transport";
import { int, isRecord, type Answer } from "../schema";

/** What a new pool of that flavor and size needs. */
export interface PoolQuotaRequest {
  /** E.g. `g1-standard-2-4`; the one field the API requires. */
  readonly flavorId: string;
  readonly nodeCount?: number | undefined;
  readonly minNodeCount?: number | undefined;
  readonly maxNodeCount?: number | undefined;
  /** Informational. */
  readonly name?: string | undefined;
}

/** `vm_count_limit` -> `["vm_count", "limit"]`; undefined for a key of another shape. */
function quotaKey(key: string): [quota: string, part: "limit" | "usage" | "requested"] | undefined {
  const m = /^(.+)_(limit|usage|requested)$/.exec(key);
  return m ? [m[1] as string, m[2] as "limit" | "usage" | "requested"] : undefined;
}

const quotaValue = int.nullish();

interface ExceededQuotaFields {
  /** The quota's name as the API spells it, e.g. `vm_count`, `cpu_count`, `ram` (MiB). */
  quota: string;
  /** The project's limit; null when not reported. */
  limit: number | null;
  /** What the project uses now; null when not reported. */
  usage: number | null;
  /** What the pool would add; null when not reported. */
  requested: number | null;
}

/** A present value must be a whole number or `null`; a quota with no value is not counted as exceeded. */
export const poolQuotaSchema = z
  .record(z.string(), z.unknown())
  .superRefine((body, ctx) => {
    for (const [key, value] of Object.entries(body)) {
      if (quotaKey(key) && !quotaValue.safeParse(value).success) {
        ctx.addIssue({ code: "custom", path: [key], message: `expected an integer or null, got ${isRecord(value) ? "object" : JSON.stringify(value)}` });
      }
    }
  })
  .transform((body) => {
    const byQuota = new Map<string, ExceededQuotaFields>();
    for (const [key, value] of Object.entries(body)) {
      const parsed = quotaKey(key);
      if (!parsed || typeof value !== "number") continue;
      const [quota, part] = parsed;
      const entry = byQuota.get(quota) ?? { quota, limit: null, usage: null, requested: null };
      entry[part] = value;
      byQuota.set(quota, entry);
    }
    return {
      /** The quotas a new pool of that flavor and size would exceed, sorted by name; empty when it fits. */
      exceeded: [...byQuota.values()].sort((a, b) => a.quota.localeCompare(b.quota)) as readonly ExceededQuota[],
    };
  });

/** One quota a pool would exceed. */
export interface ExceededQuota extends Readonly<ExceededQuotaFields> {}

/** What `check_limits` answers: the quotas a new pool would exceed. */
export interface PoolQuotaCheck extends Answer<typeof poolQuotaSchema> {}

/** Changes nothing; a failure (404 where the endpoint is lacking) says nothing about the quota. */
export function checkPoolQuota(t: Transport, projectId: number, regionId: number, pool: PoolQuotaRequest, options?: RequestOptions): Promise<PoolQuotaCheck> {
  const body: Record<string, unknown> = { flavor_id: pool.flavorId };
  if (pool.nodeCount !== undefined) body["node_count"] = pool.nodeCount;
  if (pool.minNodeCount !== undefined) body["min_node_count"] = pool.minNodeCount;
  if (pool.maxNodeCount !== undefined) body["max_node_count"] = pool.maxNodeCount;
  if (pool.name !== undefined) body["name"] = pool.name;
  return t
    .request({ method: "POST", path: apiPath`/cloud/v2/k8s/clusters/${projectId}/${regionId}/pools/check_limits`, body, options, response: poolQuotaSchema })
    .then((res) => res.data);
}
