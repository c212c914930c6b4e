import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";

/**
 * Keeps a Kubernetes cluster at the target version and puts a used-space threshold on a storage.
 * A function, not top-level code, so the unit tests can declare it under mocks and the
 * integration test can hand it to the Automation API.
 */
export function declareStack() {
  const config = new pulumi.Config();
  const project = cloud.getProjectOutput({});
  const region = cloud.getRegionOutput({ name: config.get("regionName") ?? "Luxembourg-2", hasK8s: true });

  const cluster = new cloud.K8sClusterUpgrade("cluster-version", {
    projectId: project.id,
    regionId: region.id,
    clusterName: config.get("clusterName") ?? "demo-cluster",
    version: config.get("targetVersion") ?? "v1.31.2",
  });

  const space = new cloud.StorageEvent("space-threshold", {
    name: (config.get("spaceEvent") ?? "reaching_used_space") as cloud.StorageEventName,
    storageName: config.get("storageName") ?? "media",
    bytes: config.getNumber("spaceLimitBytes") ?? 500 * 1024 ** 3,
  });

  return { projectId: project.id, regionId: region.id, clusterVersion: cluster.version, spaceEventUuid: space.uuid };
}
