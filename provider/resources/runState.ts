/**
 * What one provider run remembers between lifecycle calls. An object in the lifecycle context,
 * not module globals: one process may serve several runs (a long-lived plugin, a test file), and
 * facts of one run must never leak into another. Each adapter makes one per provider configuration.
 */
import { ClusterReadHandover } from "./k8s/recentReads";
import { SharedEventLists } from "./storage/eventLists";
import { DEFAULT_WRITE_TIMING, type WriteTiming } from "./writeAttempts";

/** Tunables of a run; tests shorten the settle delay and inject a clock. */
export interface RunOptions {
  /** How writes are reconciled after an ambiguous failure (settle delay, attempts, sleep). */
  readonly writeTiming?: Partial<WriteTiming> | undefined;
  /** The clock used for the age of handed-over reads and shared event lists. */
  readonly now?: (() => number) | undefined;
}

/** Per-run facts shared by the lifecycles of one provider run. */
export class RunState {
  /** Cluster reads made by K8sClusterUpgrade's check, handed to the create/update that follows. */
  readonly clusterReads: ClusterReadHandover;
  /**
   * StorageEvent identities this run creates: two resources declaring the same event create
   * concurrently, before either is listed, and the second must fail instead of racing the first.
   */
  readonly claimedEvents = new Set<string>();
  /**
   * Event uuids adopted in this run: after a rename, the delete of the old resource (same uuid,
   * same `pulumi up`) must leave the event to its new owner.
   */
  readonly adoptedEvents = new Set<string>();
  /** Regions (`<projectId>/<regionId>`) whose pool quota check failed: warned once, not asked again. */
  readonly quotaCheckUnavailable = new Set<string>();
  /** How writes are reconciled. */
  readonly writeTiming: WriteTiming;
  /** The event lists of this run and how fresh each use needs them (storage/eventLists.ts). */
  readonly eventLists: SharedEventLists;

  constructor(options: RunOptions = {}) {
    this.clusterReads = new ClusterReadHandover(options.now);
    this.writeTiming = { ...DEFAULT_WRITE_TIMING, ...options.writeTiming };
    this.eventLists = new SharedEventLists(options.now);
  }
}
