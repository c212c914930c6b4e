"""Keeps a Kubernetes cluster at the target version and puts a used-space threshold on a storage.

Functions, not top-level code, so the unit tests can declare it under mocks and the integration
tests can hand it to the Automation API as an inline program.
"""
import pulumi
import pulumi_cloudplatform as cloudplatform


def declare_stack():
    """Declares the resources; returns the outputs `main` exports."""
    config = pulumi.Config()
    project = cloudplatform.get_project_output()
    region = cloudplatform.get_region_output(name=config.get("regionName") or "Luxembourg-2", has_k8s=True)

    cluster = cloudplatform.K8sClusterUpgrade(
        "cluster-version",
        project_id=project.id,
        region_id=region.id,
        cluster_name=config.get("clusterName") or "demo-cluster",
        version=config.get("targetVersion") or "v1.31.2",
    )

    space = cloudplatform.StorageEvent(
        "space-threshold",
        name=config.get("spaceEvent") or "reaching_used_space",
        storage_name=config.get("storageName") or "media",
        bytes=config.get_int("spaceLimitBytes") or 500 * 1024**3,
    )

    return {"projectId": project.id, "regionId": region.id, "clusterVersion": cluster.version, "spaceEventUuid": space.uuid}


def main():
    """The program: declares the stack and exports its outputs."""
    for name, value in declare_stack().items():
        pulumi.export(name, value)
