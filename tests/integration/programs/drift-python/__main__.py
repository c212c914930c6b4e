"""Program of tests/integration/drift.test.ts on the plugin path, through the generated Python
SDK. Stack `blocked`: a cluster held at v1.30.4 and one storage event; the test upgrades the
cluster past that version out of band, which the provider refuses to undo. Stack `quota` (config
`stagingVersion` set): a cluster deployed at its live version, then declared one version up,
which its project's quota cannot hold."""
import pulumi
import pulumi_cloudplatform as cloudplatform

staging_version = pulumi.Config().get("stagingVersion")

if staging_version:
    cloudplatform.K8sClusterUpgrade("staging", project_id=2, region_id=76, cluster_name="staging-cluster", version=staging_version)
else:
    cloudplatform.K8sClusterUpgrade("demo", project_id=1, region_id=76, cluster_name="demo-cluster", version="v1.30.4")
    cloudplatform.StorageEvent("space", name="reaching_used_space", storage_name="drift-python", bytes=1000)
