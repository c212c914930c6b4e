package infra;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;
import io.github.pulumicloudplatform.cloudplatform.CloudplatformFunctions;
import io.github.pulumicloudplatform.cloudplatform.K8sClusterUpgrade;
import io.github.pulumicloudplatform.cloudplatform.K8sClusterUpgradeArgs;
import io.github.pulumicloudplatform.cloudplatform.StorageEvent;
import io.github.pulumicloudplatform.cloudplatform.StorageEventArgs;
import io.github.pulumicloudplatform.cloudplatform.inputs.GetRegionArgs;
import io.github.pulumicloudplatform.cloudplatform.outputs.GetProjectResult;
import io.github.pulumicloudplatform.cloudplatform.outputs.GetRegionResult;

/**
 * A small program and its tests (src/test: unit tests under Pulumi's mocks): it keeps a
 * Kubernetes cluster at the target version and puts a used-space threshold on a storage.
 */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(App::declareStack);
    }

    /** The whole program, a method so the tests can run it under mocks. */
    static void declareStack(Context ctx) {
        var config = ctx.config();
        var project = CloudplatformFunctions.getProject();
        var region = CloudplatformFunctions.getRegion(GetRegionArgs.builder()
            .name(config.get("regionName").orElse("Luxembourg-2"))
            .hasK8s(true)
            .build());
        Output<Integer> projectId = project.applyValue(GetProjectResult::id);
        Output<Integer> regionId = region.applyValue(GetRegionResult::id);

        var cluster = new K8sClusterUpgrade("cluster-version", K8sClusterUpgradeArgs.builder()
            .projectId(projectId)
            .regionId(regionId)
            .clusterName(config.get("clusterName").orElse("demo-cluster"))
            .version(config.get("targetVersion").orElse("v1.31.2"))
            .build());

        // 64-bit on the platform: the SDK takes a Double (whole numbers to 2^53 - 1 are exact).
        double limit = config.getDouble("spaceLimitBytes").orElse(500.0 * 1024 * 1024 * 1024);
        var space = new StorageEvent("space-threshold", StorageEventArgs.builder()
            .name(config.get("spaceEvent").orElse("reaching_used_space"))
            .storageName(config.get("storageName").orElse("media"))
            .bytes(limit)
            .build());

        ctx.export("projectId", projectId);
        ctx.export("regionId", regionId);
        ctx.export("clusterVersion", cluster.version());
        ctx.export("spaceEventUuid", space.uuid());
    }
}
