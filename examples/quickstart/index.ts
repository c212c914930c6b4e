// Quickstart: find the default project and a Kubernetes-capable region, list its clusters, upgrade
// a cluster to its next permitted version, and create storage notification thresholds.
//
// Runs unchanged against a real account: set cloudplatform:baseUrl and (as a secret)
// cloudplatform:apiKey, and the config values below to your own cluster and storage.
import * as pulumi from "@pulumi/pulumi";
import * as cloud from "pulumi-cloudplatform";

const config = new pulumi.Config();
const regionName = config.get("regionName") ?? "Luxembourg-2";
const clusterName = config.get("clusterName") ?? "demo-cluster";
const targetVersion = config.get("targetVersion") ?? "v1.31.2";
const storageName = config.get("storageName") ?? "demo-storage";
const bucketName = config.get("bucketName") ?? "demo-bucket";

const project = cloud.getProjectOutput({});
const region = cloud.getRegionOutput({ name: regionName, hasK8s: true });

// The clusters there: `pulumi stack output clusterNames` shows what `clusterName` may be.
const clusters = cloud.getK8sClustersOutput({ projectId: project.id, regionId: region.id });

const clusterVersion = new cloud.K8sClusterUpgrade("cluster-version", {
  projectId: project.id,
  regionId: region.id,
  clusterName,
  version: targetVersion,
});

const storageSpace = new cloud.StorageEvent("storage-space", {
  name: "reaching_used_space",
  storageName,
  bytes: 500 * 1024 ** 3,
});

const bucketRequests = new cloud.StorageEvent("bucket-requests", {
  name: "reaching_used_requests",
  storageName,
  bucketName,
  count: 1_000_000,
});

export const projectName = project.name;
export const regionDisplayName = region.displayName;
export const cluster = clusterName;
export const clusterNames = clusters.names;
export const clusterRunning = clusterVersion.version;
export const clusterPreviousVersion = clusterVersion.previousVersion;
export const clusterStatus = clusterVersion.status;
export const storageSpaceEvent = storageSpace.uuid;
export const bucketRequestsEvent = bucketRequests.uuid;
