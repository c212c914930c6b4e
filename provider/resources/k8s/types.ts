/** The K8sClusterUpgrade resource's shapes, once, so a refresh right after an up finds no changes. */
import type { K8sCluster } from "../../api";

/** Chooses the waiter's polling interval, and marks an upgrade among running tasks. */
export const UPGRADE_TASK_TYPE = "upgrade_k8s_cluster";

/** After a finished upgrade (spec), and kept while healthy. */
export const PROVISIONED_STATUS = "Provisioned";

/** A cluster whose id, version and status are there and well-formed. */
export interface UsableCluster extends K8sCluster {
  readonly id: string;
  readonly version: string;
  readonly status: string;
}

/** Inputs after `check` (defaults filled in). */
export interface K8sClusterUpgradeInputs {
  projectId: number;
  regionId: number;
  /** Its identifier in API paths. */
  clusterName: string;
  /** `v<major>.<minor>.<patch>`. */
  version: string;
  allowMultiStep: boolean;
  /** For each upgrade task and the cluster's health after it. */
  timeoutMinutes: number;
  /** Absent stays absent: older states have none, and a default written in would show as a change at refresh. */
  soakSeconds?: number;
}

/**
 * `soakSeconds` here is the watch the cluster passed: 0 after a failure once the platform acted
 * (partial state), so the next `up` plans an update and watches again.
 */
export interface K8sClusterUpgradeOutputs extends K8sClusterUpgradeInputs {
  clusterId: string;
  /** As last read. */
  status: string;
  /** When the last create/update began. */
  previousVersion: string;
  /** Stepped through by the last create/update, in order. */
  upgradePath: string[];
  taskIds: string[];
}

/** One minor version per up unless asked, as the portal does. */
const DEFAULT_ALLOW_MULTI_STEP = false;

/** An upgrade task takes "several minutes" (spec); an hour covers a large cluster. */
const DEFAULT_TIMEOUT_MINUTES = 60;

const DEFAULT_SOAK_SECONDS = 0;

/** Their defaults are recorded in the stack. */
type OptionalInputs = Pick<K8sClusterUpgradeInputs, "allowMultiStep" | "timeoutMinutes">;

/** The one place the optional inputs' defaults apply (check, refresh, older states). */
export function withInputDefaults<T extends { allowMultiStep?: unknown; timeoutMinutes?: unknown; soakSeconds?: unknown }>(o: T): Omit<T, keyof OptionalInputs> & OptionalInputs {
  const { soakSeconds, ...rest } = o;
  return {
    ...rest,
    allowMultiStep: (o.allowMultiStep ?? DEFAULT_ALLOW_MULTI_STEP) as boolean,
    timeoutMinutes: (o.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) as number,
    ...(soakSeconds == null ? {} : { soakSeconds }),
  } as unknown as Omit<T, keyof OptionalInputs> & OptionalInputs;
}

/** 0 when absent. */
export function soakSecondsOf(i: Pick<K8sClusterUpgradeInputs, "soakSeconds">): number {
  return i.soakSeconds ?? DEFAULT_SOAK_SECONDS;
}

/** A change means another cluster, hence a replace. */
export const IDENTITY_INPUTS = ["projectId", "regionId", "clusterName"] as const;

/** A change is an in-place update. */
export const UPDATABLE_INPUTS = ["version", "allowMultiStep", "timeoutMinutes", "soakSeconds"] as const;

/** `<projectId>/<regionId>/<clusterName>`, one per cluster. */
export function resourceIdOf(i: Pick<K8sClusterUpgradeInputs, "projectId" | "regionId" | "clusterName">): string {
  return `${i.projectId}/${i.regionId}/${i.clusterName}`;
}

/** Undefined when the id is not one of ours. */
export function parseResourceId(id: string): Pick<K8sClusterUpgradeInputs, "projectId" | "regionId" | "clusterName"> | undefined {
  const m = /^(\d+)\/(\d+)\/(.+)$/.exec(id);
  if (!m) return undefined;
  return { projectId: Number(m[1]), regionId: Number(m[2]), clusterName: m[3] ?? "" };
}

/** What `read` hands back as the refreshed inputs. */
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
