/**
 * Hands the reads made by `check` to the `create`/`update` that follows in the same run (one
 * `pulumi up` reads the cluster and its permitted versions once), and the read made by `read`
 * (refresh) to the `check` that follows it in `up --refresh` / `preview --refresh`.
 *
 * `check` may use a read of the same cluster within {@link MAX_AGE_MS} (it only judges the plan;
 * create/update verify against the API again); `create`/`update` take what `check` read, at most
 * once; `read` always asks the API. A state that changed in between is caught by the API itself
 * (a stale target is refused with 400, a running upgrade with 409) and reconciled by reading.
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
  /** When the cluster was read (a reuse passes it on, so a read never grows younger). */
  readAt: number;
}

/** A recorded read as `peek` and `take` hand it out. */
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

  /**
   * Records what `check` read of a cluster (and its permitted versions, when it read them);
   * `readAt` is when the cluster was read, now unless it came from an earlier read.
   */
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
