/**
 * A full run of the provider's own code against a simulator, for the request conformance test:
 * every lookup with each of its filter arguments, a K8sClusterUpgrade through check, a two-step
 * create, read, an update that upgrades again and delete, and StorageEvents of all four kinds
 * (one with `clientId`) through check, create, an update of each limit, read, delete, plus an
 * adoption. What it sends is in the simulator's request log.
 */
import { createClient, type CloudPlatformClient } from "../../../provider/api";
import * as lookups from "../../../provider/lookups";
import { LookupCache } from "../../../provider/lookups/cache";
import { runLookup, type LookupDefinition } from "../../../provider/lookups/runtime";
import { createK8sClusterUpgradeLifecycle, type K8sClusterUpgradeInputs } from "../../../provider/resources/k8sClusterUpgrade";
import { storageEvent, type StorageEventInputs } from "../../../provider/resources/storageEvent";
import type { RunningSimulator } from "../../../simulator";
import { unknownInputs } from "../../../provider/adapters/unknownValues";
import { contextOf } from "../resources/context";

/** One lookup call of the run: the definition and its arguments. */
export interface LookupCallOfRun {
  readonly def: LookupDefinition<any, any, any>;
  readonly args: Record<string, unknown>;
}

const AI_TASK_ID = "ff552cb0-9895-4581-abc1-eddd9806f69c"; // the seed's first AI task

/** Every lookup, each filter argument set at least once; `taskId` is one the run's upgrade made. */
export function lookupCalls(taskId: string): LookupCallOfRun[] {
  const ref = { projectId: 1, regionId: 76, clusterName: "prod-cluster" };
  return [
    { def: lookups.getProjectsLookup, args: {} },
    { def: lookups.getProjectsLookup, args: { includeDeleted: true } },
    { def: lookups.getProjectLookup, args: { name: "default" } },
    { def: lookups.getProjectLookup, args: { id: 2 } },
    { def: lookups.getRegionsLookup, args: { hasK8s: true, hasKvm: true, hasDbaas: false, hasBaremetal: false, accessLevel: "core", includeInactive: true } },
    { def: lookups.getRegionLookup, args: { name: "Luxembourg-2", hasKvm: true, hasDbaas: true, hasBaremetal: true } },
    { def: lookups.getRegionLookup, args: { id: 38, hasK8s: true, accessLevel: "core" } },
    { def: lookups.getInstancesLookup, args: { projectId: 1, regionId: 76, name: "web", status: "ACTIVE", pageSize: 10, maxResults: 15 } },
    { def: lookups.getTaskLookup, args: { taskId } },
    { def: lookups.getTasksLookup, args: { projectId: 1, regionId: 76, state: ["FINISHED", "RUNNING"], taskType: "upgrade_k8s_cluster_v2", orderBy: "asc", pageSize: 2, maxResults: 5 } },
    { def: lookups.getTasksLookup, args: { state: "ERROR" } },
    { def: lookups.getK8sClustersLookup, args: { projectId: 1, regionId: 76, pageSize: 2, maxResults: 3 } },
    { def: lookups.getK8sClustersLookup, args: { projectId: 1, regionId: 76, name: "prod-cluster" } },
    { def: lookups.getK8sClusterLookup, args: ref },
    { def: lookups.getK8sUpgradeVersionsLookup, args: { ...ref, clusterName: "demo-cluster" } },
    { def: lookups.getDelegationStatusLookup, args: { domain: "example.com", rateLimitBudgetSeconds: 5 } },
    { def: lookups.getCurrentClientLookup, args: {} },
    { def: lookups.getResellerTotalsLookup, args: { metric: "requests", clientIds: [101, 102], from: "2026-09-01", to: "2026-11-30", limit: 30, offset: 5, maxResults: 40 } },
    { def: lookups.getResellerTotalsLookup, args: { metric: "domains", from: "2026-09-01", to: "2026-09-08" } },
    { def: lookups.getResellerTotalsLookup, args: { metric: "volume", clientIds: [103], from: "2026-09-01", to: "2026-09-03", limit: 0 } },
    { def: lookups.getResellerTotalsLookup, args: { metric: "requests_clean", from: "2026-09-01", to: "2026-09-03" } },
    { def: lookups.getResellerPingLookup, args: {} },
    { def: lookups.getStreamingAiTasksLookup, args: { taskId: AI_TASK_ID } },
    {
      def: lookups.getStreamingAiTasksLookup,
      args: { taskName: "transcription", status: "SUCCESS", dateCreated: "2026-10-01T00:00:00Z", ordering: "started_at", search: "episode", pageSize: 2, maxResults: 3 },
    },
  ];
}

/** Each lookup with a cache of its own, so every call reaches the API. */
async function runLookups(sim: RunningSimulator, taskId: string): Promise<void> {
  for (const call of lookupCalls(taskId)) {
    await runLookup(call.def, call.args, { settings: { baseUrl: sim.url, apiKey: sim.apiKey }, cache: new LookupCache() });
  }
}

/** check (preview), a two-step create, read, an update to the next version, check again, delete; returns a task id it made. */
async function k8sLifecycle(client: CloudPlatformClient): Promise<string> {
  const lifecycle = createK8sClusterUpgradeLifecycle({ pollSchedule: { initialMs: 50, factor: 1.5, maxMs: 200 } });
  const ctx = contextOf(client);
  const inputs: K8sClusterUpgradeInputs = { projectId: 1, regionId: 76, clusterName: "legacy-cluster", version: "v1.30.4", allowMultiStep: true, timeoutMinutes: 60, soakSeconds: 0 };
  const checked = await lifecycle.check(ctx, { ...inputs }, unknownInputs({ ...inputs }));
  if (checked.failures.length) throw new Error(`K8sClusterUpgrade check: ${JSON.stringify(checked.failures)}`);
  const { id, outs } = await lifecycle.create(ctx, checked.inputs);
  if (outs.upgradePath.length !== 2) throw new Error(`expected a two-step upgrade, got ${JSON.stringify(outs.upgradePath)}`);
  const read = await lifecycle.read(ctx, id, outs);
  if (!read) throw new Error("K8sClusterUpgrade read: the cluster is gone");
  const next = { ...read.inputs, version: "v1.31.2" };
  const rechecked = await lifecycle.check(ctx, { ...next }, unknownInputs({ ...next }));
  if (rechecked.failures.length) throw new Error(`K8sClusterUpgrade check: ${JSON.stringify(rechecked.failures)}`);
  const updated = await lifecycle.update(ctx, id, read.outs, rechecked.inputs);
  await lifecycle.read(ctx, id, updated);
  await lifecycle.delete(ctx, id, updated);
  const taskId = outs.taskIds[0];
  if (!taskId) throw new Error("K8sClusterUpgrade create: no task id");
  return taskId;
}

const EVENTS: readonly StorageEventInputs[] = [
  { name: "reaching_used_space", storageName: "media", bytes: 500 },
  { name: "reaching_used_traffic", bucketName: "photos", bytes: 1000 },
  { name: "reaching_files_quantity", storageName: "media", bucketName: "photos", count: 5, clientId: 42 },
  { name: "reaching_used_requests", storageName: "logs", count: 1_000_000 },
];

/** One event through check, create, an update of its limit, read and delete. */
async function storageEventLifecycle(client: CloudPlatformClient, declared: StorageEventInputs): Promise<void> {
  const ctx = contextOf(client);
  const checked = await storageEvent.check(ctx, { ...declared }, new Set());
  if (checked.failures.length) throw new Error(`StorageEvent check: ${JSON.stringify(checked.failures)}`);
  const { id, outs } = await storageEvent.create(ctx, checked.inputs);
  const limit = declared.bytes !== undefined ? { bytes: declared.bytes * 2 } : { count: (declared.count ?? 0) * 2 };
  const updated = await storageEvent.update(ctx, id, outs, { ...checked.inputs, ...limit });
  const read = await storageEvent.read(ctx, id, updated);
  if (!read) throw new Error(`StorageEvent read: ${id} is gone`);
  await storageEvent.delete(ctx, id, read.outs);
}

/** An event made outside the stack, adopted with another limit (a PUT), then deleted. */
async function storageEventAdoption(client: CloudPlatformClient): Promise<void> {
  const made = await client.storage.notifications.create({ name: "reaching_used_space", storageName: "archive", bytes: 10 });
  const { id, outs } = await storageEvent.create(contextOf(client), { name: "reaching_used_space", storageName: "archive", bytes: 20, adoptUuid: String(made.uuid) });
  // A later run (its destroy): within the adopting run, the event counts as another resource's.
  await storageEvent.delete(contextOf(client), id, outs);
}

/** The whole run against `sim` (started with a time scale that finishes an upgrade task within a second). */
export async function fullRun(sim: RunningSimulator): Promise<void> {
  const client = createClient({ baseUrl: sim.url, apiKey: sim.apiKey });
  const taskId = await k8sLifecycle(client);
  for (const declared of EVENTS) await storageEventLifecycle(client, declared);
  await storageEventAdoption(client);
  await runLookups(sim, taskId);
}
