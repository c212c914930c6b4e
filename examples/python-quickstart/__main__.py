"""Quickstart in Python: find the default project and a Kubernetes-capable region, list its
clusters, upgrade a cluster to its next permitted version, and create two storage notification
thresholds. The same program as examples/quickstart (TypeScript), on the generated SDK
(pulumi_cloudplatform) and the cloudplatform plugin.

Runs unchanged against a real account: set cloudplatform:baseUrl and (as a secret)
cloudplatform:apiKey, and the config values below to your own cluster and storage.
"""
import pulumi
import pulumi_cloudplatform as cloudplatform

config = pulumi.Config()
region_name = config.get("regionName") or "Luxembourg-2"
cluster_name = config.get("clusterName") or "demo-cluster"
target_version = config.get("targetVersion") or "v1.31.2"
storage_name = config.get("storageName") or "demo-storage"
bucket_name = config.get("bucketName") or "demo-bucket"

project = cloudplatform.get_project_output()
region = cloudplatform.get_region_output(name=region_name, has_k8s=True)

# The clusters there: `pulumi stack output clusterNames` shows what `clusterName` may be.
clusters = cloudplatform.get_k8s_clusters_output(project_id=project.id, region_id=region.id)

cluster_version = cloudplatform.K8sClusterUpgrade(
    "cluster-version",
    project_id=project.id,
    region_id=region.id,
    cluster_name=cluster_name,
    version=target_version,
)

storage_space = cloudplatform.StorageEvent(
    "storage-space",
    name="reaching_used_space",
    storage_name=storage_name,
    bytes=500 * 1024**3,
)

bucket_requests = cloudplatform.StorageEvent(
    "bucket-requests",
    name="reaching_used_requests",
    storage_name=storage_name,
    bucket_name=bucket_name,
    count=1_000_000,
)

pulumi.export("projectName", project.name)
pulumi.export("regionDisplayName", region.display_name)
pulumi.export("cluster", cluster_name)
pulumi.export("clusterNames", clusters.names)
pulumi.export("clusterRunning", cluster_version.version)
pulumi.export("clusterPreviousVersion", cluster_version.previous_version)
pulumi.export("clusterStatus", cluster_version.status)
pulumi.export("storageSpaceEvent", storage_space.uuid)
pulumi.export("bucketRequestsEvent", bucket_requests.uuid)
