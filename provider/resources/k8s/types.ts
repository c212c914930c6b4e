/**
 * Inputs, outputs, defaults and the id of the K8sClusterUpgrade resource, and the cluster shape
 * it decides on ({@link UsableCluster}). One definition keeps `create` and `read` returning the
 * same keys, so a refresh right after an up finds no changes.
 */
import type { K8sCluster } from "../../api";

/** The task type of an upgrade (spec): passed to the waiter to choose its polling interval, and the sign of an upgrade among running tasks. */
export const UPGRADE_TASK_TYPE = "upgrade_k8s_cluster";

/** Status a cluster reports after a finished upgrade (spec), and the one it must keep while healthy. */
export const PROVISIONED_STATUS = "Provisioned";

/** A cluster this resource can decide on: its id (recorded), version and status are there and well-formed. */
export interface UsableCluster extends K8sCluster {
  readonly id: string;
  readonly version: string;
  readonly status: string;
}

/** Inputs after `check` (defaults filled in). */
export interface K8sClusterUpgradeInputs {
  /** Project of the cluster (integer). */
  projectId: number;
  /** Region of the cluster (integer). */
  regionId: number;
  /** The cluster's user-defined name (its identifier in API paths). */
  clusterName: string;
  /** Target version, `v<major>.<minor>.<patch>`. */
  version: string;
  /** Whether one create/update may chain several one-minor upgrade steps. */
  allowMultiStep: boolean;
  /** How long to wait for each upgrade task and the cluster's health after it, in minutes. */
  timeoutMinutes: number;
  /**
   * How long the upgraded cluster must stay healthy before success, in seconds; absent or 0: no
   * watch ({@link soakSecondsOf}). Absent stays absent in the stack: states written before this
   * input existed have none, and a default written in would show as a change at refresh.
   */
  soakSeconds?: number;
}

/**
 * What a create/update/read records in the stack. `soakSeconds` there is the watch the cluster
 * passed: 0 after a create/update that failed once the platform acted (partial state), so the
 * next `up` plans an update and watches again, also after a refresh.
 */
export interface K8sClusterUpgradeOutputs extends K8sClusterUpgradeInputs {
  /** The cluster's UUID as the API reports it. */
  clusterId: string;
  /** The cluster's status as last read (`Provisioned` after a finished upgrade). */
  status: string;
  /** The version the cluster had when the last create/update began. */
  previousVersion: string;
  /** Versions the last create/update stepped through, in order; [] when it changed nothing. */
  upgradePath: string[];
  /** Ids of the tasks the last create/update awaited, in order; [] when none. */
  taskIds: string[];
}

/** Default of `allowMultiStep`: one minor version per up unless asked, as the portal does. */
const DEFAULT_ALLOW_MULTI_STEP = false;

/**
 * Default of `timeoutMinutes`: an upgrade task takes "several minutes" (spec), replacing nodes
 * one by one; an hour covers a large cluster while still ending a run whose task never finishes.
 */
const DEFAULT_TIMEOUT_MINUTES = 60;

/** Default of `soakSeconds`: success as soon as the cluster is healthy, no watch after. */
const DEFAULT_SOAK_SECONDS = 0;

/** The optional inputs of K8sClusterUpgrade whose defaults are recorded in the stack. */
type OptionalInputs = Pick<K8sClusterUpgradeInputs, "allowMultiStep" | "timeoutMinutes">;

/**
 * `o` with the optional inputs' defaults where they are absent or null: the one place they apply
 * (check's inputs, refreshed inputs, stored values of older states).
 */
export function withInputDefaults<T extends { allowMultiStep?: unknown; timeoutMinutes?: unknown; soakSeconds?: unknown }>(o: T): Omit<T, keyof OptionalInputs> & OptionalInputs {
  const { soakSeconds, ...rest } = o;
  return {
    ...rest,
    allowMultiStep: (o.allowMultiStep ?? DEFAULT_ALLOW_MULTI_STEP) as boolean,
    timeoutMinutes: (o.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) as number,
    ...(soakSeconds == null ? {} : { soakSeconds }),
  } as unknown as Omit<T, keyof OptionalInputs> & OptionalInputs;
}

/** The watch `soakSeconds` asks for, 0 when absent. */
export function soakSecondsOf(i: Pick<K8sClusterUpgradeInputs, "soakSeconds">): number {
  return i.soakSeconds ?? DEFAULT_SOAK_SECONDS;
}

/** Names of the inputs whose change means another cluster, hence a replace. */
export const IDENTITY_INPUTS = ["projectId", "regionId", "clusterName"] as const;

/** Names of the inputs a change of which is an in-place update. */
export const UPDATABLE_INPUTS = ["version", "allowMultiStep", "timeoutMinutes", "soakSeconds"] as const;

/** The resource id: `<projectId>/<regionId>/<clusterName>`, one per cluster. */
export function resourceIdOf(i: Pick<K8sClusterUpgradeInputs, "projectId" | "regionId" | "clusterName">): string {
  return `${i.projectId}/${i.regionId}/${i.clusterName}`;
}

/** Splits a resource id back into the cluster identity; undefined when it is not one of ours. */
export function parseResourceId(id: string): Pick<K8sClusterUpgradeInputs, "projectId" | "regionId" | "clusterName"> | undefined {
  const m = /^(\d+)\/(\d+)\/(.+)$/.exec(id);
  if (!m) return undefined;
  return { projectId: Number(m[1]), regionId: Number(m[2]), clusterName: m[3] ?? "" };
}

/** The input part of stored outputs (what `read` hands back as the refreshed inputs). */
export function inputsOf(o: K8sClusterUpgradeInputs): K8sClusterUpgradeInputs {
  return withInputDefaults({
    projectId: o.projectId,
    regionId: o.regionId,
    clusterName: o.clusterName,
    version: o.version,
    allowMultiStep: o.allowMultiStep,
    timeoutMinutes: o.timeoutMinutes,
    ...(o.soakSeconds == null ? {} : { soakSeconds: o.soakSeconds }),
  });
}
