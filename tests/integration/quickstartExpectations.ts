/**
 * What every quickstart (examples/python-quickstart, go-quickstart, yaml-quickstart) must show
 * after its first `up` against the simulator's default seed: they declare the same resources,
 * config defaults and outputs, so the suites that run them check them against one description.
 */
import type { StoredEvent } from "../../simulator/state";

/** The stack outputs after the first `up`: demo-cluster stepped one minor version. */
export const QUICKSTART_UP_OUTPUTS = {
  projectName: "default",
  regionDisplayName: "Luxembourg-2",
  cluster: "demo-cluster",
  clusterNames: ["prod-cluster", "demo-cluster", "legacy-cluster", "edge-cluster"],
  clusterRunning: "v1.31.2",
  clusterPreviousVersion: "v1.30.4",
  clusterStatus: "Provisioned",
} as const;

/** The two thresholds a quickstart creates, as the simulator stores them, named by the uuid outputs. */
export function quickstartEvents(outputs: Record<string, unknown>, storageName: string): StoredEvent[] {
  return [
    { uuid: outputs["storageSpaceEvent"] as string, name: "reaching_used_space", storage_name: storageName, bytes: 500 * 1024 ** 3 },
    { uuid: outputs["bucketRequestsEvent"] as string, name: "reaching_used_requests", storage_name: storageName, bucket_name: "demo-bucket", count: 1_000_000 },
  ];
}
