/**
 * What one provider run remembers between lifecycle calls, in one object.
 *
 * Why an object passed through the lifecycle context and not module globals: a provider process
 * may serve several runs (a long-lived plugin, a test file calling lifecycles directly), and
 * facts of one run (a cluster read by check, an event being created) must never leak into
 * another. Each adapter makes one RunState per provider configuration (one per `pulumi up`
 * for the engine, one per test for unit tests).
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
   * StorageEvent identities a create of this run is creating or has created. Why: two resources
   * declaring the same event start their creates concurrently, before either is listed; the
   * second must fail with the clear "already declared" error instead of racing the first.
   */
  readonly claimedEvents = new Set<string>();
  /**
   * Event uuids adopted by a resource in this run. Why: adopting an event under a new resource
   * name (a rename) is followed, in the same `pulumi up`, by the delete of the old resource,
   * which holds the same uuid; that delete must leave the event to its new owner.
   */
  readonly adoptedEvents = new Set<string>();
  /**
   * Regions (`<projectId>/<regionId>`) whose pool quota check failed in this run. Why: the check
   * is a guard; when the endpoint cannot answer, the first upgrade warns and the others of the
   * region neither ask again nor warn again.
   */
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
