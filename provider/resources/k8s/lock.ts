/**
 * Whether an operation already runs on a cluster: a second upgrade must never start beside a
 * first, so when `task_id` is left out the running tasks of its project and region are judged.
 */
import type { CloudPlatformClient, Task } from "../../api";
import { UPGRADE_TASK_TYPE, type K8sClusterUpgradeInputs, type UsableCluster } from "./types";

/** What is known of the cluster's lock: a task holds it, nothing does, or it cannot be told. */
export type Lock =
  | { readonly kind: "locked"; readonly taskId: string }
  | { readonly kind: "free" }
  | { readonly kind: "unclear"; readonly reason: string };

const UNFINISHED_STATES = ["NEW", "RUNNING"] as const;

/** Most running tasks of a project and region read when the cluster does not report its lock. */
const MAX_RUNNING_TASKS_READ = 100;

/**
 * True for a task that may be an upgrade of a cluster: the spec's `upgrade_k8s_cluster`, the
 * public `upgrade_k8s_cluster_v2`, or a task whose type is not reported.
 */
function mayBeUpgrade(task: Task): boolean {
  return task.taskType === null || task.taskType.startsWith(UPGRADE_TASK_TYPE);
}

/** Without `task_id`, one unfinished upgrade task is the lock, and several make it unclear. */
export async function lockOf(client: CloudPlatformClient, inputs: Pick<K8sClusterUpgradeInputs, "projectId" | "regionId">, cluster: UsableCluster): Promise<Lock> {
  if (typeof cluster.taskId === "string") return { kind: "locked", taskId: cluster.taskId };
  if (cluster.taskId === null) return { kind: "free" };
  const { projectId, regionId } = inputs;
  const running = (
    await client.cloud.tasks.listAll({ projectId, regionId, state: [...UNFINISHED_STATES] }, { pageSize: MAX_RUNNING_TASKS_READ, max: MAX_RUNNING_TASKS_READ })
  ).filter(mayBeUpgrade);
  const only = running[0];
  if (running.length === 0) return { kind: "free" };
  if (running.length === 1 && only) return { kind: "locked", taskId: only.id };
  return {
    kind: "unclear",
    reason: `the cluster does not report its lock (no "task_id"), and ${running.length} unfinished upgrade tasks run in project ${projectId}, region ${regionId} (${running.map((t) => t.id).join(", ")})`,
  };
}
