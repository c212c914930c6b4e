"""Program of tests/integration/drift.test.ts on the plugin path: a cluster held at v1.30.4 and
one storage event, through the generated Python SDK. The test upgrades the cluster past that
version out of band, which the provider refuses to undo."""
import pulumi_cloudplatform as cloudplatform

cloudplatform.K8sClusterUpgrade("demo", project_id=1, region_id=76, cluster_name="demo-cluster", version="v1.30.4")
cloudplatform.StorageEvent("space", name="reaching_used_space", storage_name="drift-python", bytes=1000)
