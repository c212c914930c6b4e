/**
 * Managed Kubernetes v2: ask whether the project's quota holds a new node pool
 * (`POST /cloud/v2/k8s/clusters/{project_id}/{region_id}/pools/check_limits`).
 *
 * Why: an upgrade replaces a cluster's nodes by creating new ones before removing the old, so
 * the quota must hold a second pool of each pool's flavor and size while it runs (spec
 * "Limits"). `K8sClusterUpgrade` asks this at preview, before anything is written, instead of
 * learning it from a failed task minutes into the rolling replacement. The call computes and
 * changes nothing; it is a POST because the pool is described in a body.
 *
 * The answer (OpenAPI `K8sClusterQuotaResponseSerializer`; the official Python SDK's
 * `K8SClusterPoolQuota`) holds, for each quota the pool would exceed, up to three integers
 * `<quota>_limit`, `<quota>_usage` and `<quota>_requested` (e.g. `vm_count_limit`), and is `{}`
 * when none would be exceeded. Quotas the public material does not list yet are read the same
 * way; keys of another shape are ignored.
 */
import { z } from "zod";
import { apiPath } from "../url";
import type { RequestOptions, Transport } from "../transport";
import { int, isRecord, type Answer } from "../schema";

/** The pool to check: what a new pool of that flavor and size needs (wire names in the body). */
export interface PoolQuotaRequest {
  /** Flavor of the pool's nodes, e.g. `g1-standard-2-4` (the one field the API requires). */
  readonly flavorId: string;
  /** Nodes the pool starts with. */
  readonly nodeCount?: number | undefined;
  /** Autoscaling minimum. */
  readonly minNodeCount?: number | undefined;
  /** Autoscaling maximum. */
  readonly maxNodeCount?: number | undefined;
  /** A name for the pool (informational). */
  readonly name?: string | undefined;
}

/** `vm_count_limit` -> `["vm_count", "limit"]`; undefined for a key of another shape. */
function quotaKey(key: string): [quota: string, part: "limit" | "usage" | "requested"] | undefined {
  const m = /^(.+)_(limit|usage|requested)$/.exec(key);
  return m ? [m[1] as string, m[2] as "limit" | "usage" | "requested"] : undefined;
}

/** One quota value: a whole number, or absent / `null` (not reported). */
const quotaValue = int.nullish();

/** One quota the pool would exceed, as the answer reports it. */
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

/**
 * The answer: an object of `<quota>_<limit|usage|requested>` integers. A value of such a key
 * that is present must be a whole number or `null` (anything else is a format error naming
 * the key); a quota with no value reported is not counted as exceeded.
 */
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

/**
 * Asks whether a new pool fits the project's quota in a region. Changes nothing; a failure
 * (404 where the platform lacks the endpoint, a malformed answer) says nothing about the quota.
 */
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
