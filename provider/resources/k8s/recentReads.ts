/**
 * Hands the reads made by `check` to the `create`/`update` that follows in the same provider
 * process, so one `pulumi up` reads the cluster and its permitted versions once, not twice.
 *
 * Why it is safe: an entry is taken at most once and only within {@link MAX_AGE_MS}; anything
 * older is read again. A state that changed in between is caught by the API itself (a stale
 * target is refused with 400, a running upgrade with 409) and reconciled by reading.
 */
import type { K8sCluster } from "../../api";

/** How long a read made by `check` may stand in for a fresh one. */
export const MAX_AGE_MS = 5_000;

interface RecentRead {
  cluster: K8sCluster;
  permitted?: string[];
  at: number;
}

const recent = new Map<string, RecentRead>();

function key(projectId: number, regionId: number, clusterName: string): string {
  return `${projectId}/${regionId}/${clusterName}`;
}

/** Records what `check` read of a cluster (and its permitted versions, when it read them). */
export function rememberRead(
  projectId: number,
  regionId: number,
  cluster: K8sCluster,
  permitted?: string[],
  now: number = Date.now(),
): void {
  recent.set(key(projectId, regionId, cluster.name), { cluster, ...(permitted ? { permitted } : {}), at: now });
}

/** Takes (and forgets) a read of this cluster made within {@link MAX_AGE_MS}, if any. */
export function takeRecentRead(
  projectId: number,
  regionId: number,
  clusterName: string,
  now: number = Date.now(),
): { cluster: K8sCluster; permitted?: string[] } | undefined {
  const k = key(projectId, regionId, clusterName);
  const entry = recent.get(k);
  recent.delete(k);
  if (!entry || now - entry.at > MAX_AGE_MS) return undefined;
  return entry;
}
