/**
 * What one provider run remembers between lifecycle calls; not module globals, since one process
 * may serve several runs and their facts must never mix.
 */
import { ClusterReadHandover } from "./k8s/recentReads";
import { SharedEventLists } from "./storage/eventLists";
import { DEFAULT_WRITE_TIMING, type WriteTiming } from "./writeAttempts";

/** Tunables of a run; tests shorten the settle delay and inject a clock. */
export interface RunOptions {
  readonly writeTiming?: Partial<WriteTiming> | undefined;
  /** For the age of handed-over reads and shared event lists. */
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
  /**
   * Refused-key advice given in full this run: `pulumi refresh` after a key rotation fails every
   * resource, so each piece of advice is given once and the other refusals point to it.
   */
  readonly keyAdviceGiven = new Set<string>();
  readonly writeTiming: WriteTiming;
  readonly eventLists: SharedEventLists;

  constructor(options: RunOptions = {}) {
    this.clusterReads = new ClusterReadHandover(options.now);
    this.writeTiming = { ...DEFAULT_WRITE_TIMING, ...options.writeTiming };
    this.eventLists = new SharedEventLists(options.now);
  }
}
