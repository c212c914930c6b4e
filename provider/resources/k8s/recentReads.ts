/**
 * Hands the cluster reads of `check` to the `create`/`update` that follows (at most once), and
 * those of `read` to a following `check`; `read` always asks the API. A state changed in between
 * is refused by the API itself (400 for a stale target, 409 for a running upgrade).
 */
import type { UsableCluster } from "./types";

/** How long a read made by `check` may stand in for a fresh one. */
export const MAX_AGE_MS = 5_000;

interface RecentRead {
  cluster: UsableCluster;
  permitted?: string[];
  at: number;
}

/** What check read of a cluster, as handed to create/update. */
export interface HandedOverRead {
  cluster: UsableCluster;
  permitted?: string[];
  /** A reuse passes it on, so a read never grows younger. */
  readAt: number;
}

function handedOver(entry: RecentRead): HandedOverRead {
  return { cluster: entry.cluster, readAt: entry.at, ...(entry.permitted ? { permitted: entry.permitted } : {}) };
}

/** The reads of one run, keyed by cluster. `now` is injectable so tests need no sleeps. */
export class ClusterReadHandover {
  private readonly recent = new Map<string, RecentRead>();

  constructor(private readonly now: () => number = Date.now) {}

  private static key(projectId: number, regionId: number, clusterName: string): string {
    return `${projectId}/${regionId}/${clusterName}`;
  }

  /** `readAt` is now unless the read came from an earlier one. */
  remember(projectId: number, regionId: number, cluster: UsableCluster, permitted?: string[], readAt: number = this.now()): void {
    const entry: RecentRead = { cluster, at: readAt, ...(permitted ? { permitted } : {}) };
    this.recent.set(ClusterReadHandover.key(projectId, regionId, cluster.name), entry);
  }

  /** A read of this cluster made within {@link MAX_AGE_MS}, left in place (for check). */
  peek(projectId: number, regionId: number, clusterName: string): HandedOverRead | undefined {
    const entry = this.recent.get(ClusterReadHandover.key(projectId, regionId, clusterName));
    if (!entry || this.now() - entry.at > MAX_AGE_MS) return undefined;
    return handedOver(entry);
  }

  /** Takes (and forgets) a read of this cluster made within {@link MAX_AGE_MS}, if any. */
  take(projectId: number, regionId: number, clusterName: string): HandedOverRead | undefined {
    const k = ClusterReadHandover.key(projectId, regionId, clusterName);
    const entry = this.recent.get(k);
    this.recent.delete(k);
    if (!entry || this.now() - entry.at > MAX_AGE_MS) return undefined;
    return handedOver(entry);
  }
}
