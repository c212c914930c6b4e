package quickstart;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import io.github.pulumicloudplatform.cloudplatform.CloudplatformFunctions;
import io.github.pulumicloudplatform.cloudplatform.K8sClusterUpgrade;
import io.github.pulumicloudplatform.cloudplatform.K8sClusterUpgradeArgs;
import io.github.pulumicloudplatform.cloudplatform.StorageEvent;
import io.github.pulumicloudplatform.cloudplatform.StorageEventArgs;
import io.github.pulumicloudplatform.cloudplatform.inputs.GetK8sClustersArgs;
import io.github.pulumicloudplatform.cloudplatform.inputs.GetRegionArgs;
import io.github.pulumicloudplatform.cloudplatform.outputs.GetK8sClustersResult;
import io.github.pulumicloudplatform.cloudplatform.outputs.GetProjectResult;
import io.github.pulumicloudplatform.cloudplatform.outputs.GetRegionResult;

/**
 * Quickstart in Java: find the default project and a Kubernetes-capable region, list its
 * clusters, upgrade a cluster to its next permitted version, and create two storage notification
 * thresholds. The same program as examples/quickstart (TypeScript), on the generated Java SDK
 * and the cloudplatform plugin.
 *
 * Runs unchanged against a real account: set cloudplatform:baseUrl and (as a secret)
 * cloudplatform:apiKey, and the config values below to your own cluster and storage.
 */
public final class App {
    /** 500 GiB: limits are 64-bit on the platform, so the SDK takes them as a Double. */
    static final double STORAGE_LIMIT_BYTES = 500.0 * 1024 * 1024 * 1024;

    public static void main(String[] args) {
        Pulumi.run(App::quickstart);
    }

    static void quickstart(Context ctx) {
        var config = ctx.config();
        var regionName = config.get("regionName").orElse("Luxembourg-2");
        var clusterName = config.get("clusterName").orElse("demo-cluster");
        var targetVersion = config.get("targetVersion").orElse("v1.31.2");
        var storageName = config.get("storageName").orElse("demo-storage");
        var bucketName = config.get("bucketName").orElse("demo-bucket");

        var project = CloudplatformFunctions.getProject();
        var region = CloudplatformFunctions.getRegion(GetRegionArgs.builder().name(regionName).hasK8s(true).build());
        Output<Integer> projectId = project.applyValue(GetProjectResult::id);
        Output<Integer> regionId = region.applyValue(GetRegionResult::id);

        // The clusters there: `pulumi stack output clusterNames` shows what `clusterName` may be.
        var clusters = CloudplatformFunctions.getK8sClusters(GetK8sClustersArgs.builder().projectId(projectId).regionId(regionId).build());

        var clusterVersion = new K8sClusterUpgrade("cluster-version", K8sClusterUpgradeArgs.builder()
            .projectId(projectId)
            .regionId(regionId)
            .clusterName(clusterName)
            .version(targetVersion)
            .build());

        var storageSpace = new StorageEvent("storage-space", StorageEventArgs.builder()
            .name("reaching_used_space")
            .storageName(storageName)
            .bytes(STORAGE_LIMIT_BYTES)
            .build());

        var bucketRequests = new StorageEvent("bucket-requests", StorageEventArgs.builder()
            .name("reaching_used_requests")
            .storageName(storageName)
            .bucketName(bucketName)
            .count(1_000_000.0)
            .build());

        ctx.export("projectName", project.applyValue(GetProjectResult::name));
        ctx.export("regionDisplayName", region.applyValue(GetRegionResult::displayName));
        ctx.export("cluster", Output.of(clusterName));
        ctx.export("clusterNames", clusters.applyValue(GetK8sClustersResult::names));
        ctx.export("clusterRunning", clusterVersion.version());
        ctx.export("clusterPreviousVersion", clusterVersion.previousVersion());
        ctx.export("clusterStatus", clusterVersion.status());
        ctx.export("storageSpaceEvent", storageSpace.uuid());
        ctx.export("bucketRequestsEvent", bucketRequests.uuid());
    }
}
