// A small program and its tests (program_test.go: unit tests under Pulumi's mocks;
// integration_test.go: up, refresh and destroy against the package's simulator): it keeps a
// Kubernetes cluster at the target version and puts a used-space threshold on a storage.
package main

import (
	"github.com/pulumi-cloudplatform/pulumi-cloudplatform/sdk/go/cloudplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(declareStack)
}

// declareStack is the whole program, a function so the tests can run it under mocks and hand it
// to the Automation API as an inline program.
func declareStack(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	project := cloudplatform.GetProjectOutput(ctx, cloudplatform.GetProjectOutputArgs{})
	region := cloudplatform.GetRegionOutput(ctx, cloudplatform.GetRegionOutputArgs{
		Name:   pulumi.String(valueOr(cfg.Get("regionName"), "Luxembourg-2")),
		HasK8s: pulumi.Bool(true),
	})

	cluster, err := cloudplatform.NewK8sClusterUpgrade(ctx, "cluster-version", &cloudplatform.K8sClusterUpgradeArgs{
		ProjectId:   project.Id(),
		RegionId:    region.Id(),
		ClusterName: pulumi.String(valueOr(cfg.Get("clusterName"), "demo-cluster")),
		Version:     pulumi.String(valueOr(cfg.Get("targetVersion"), "v1.31.2")),
	})
	if err != nil {
		return err
	}

	limit := cfg.GetInt("spaceLimitBytes")
	if limit == 0 {
		limit = 500 * 1024 * 1024 * 1024
	}
	space, err := cloudplatform.NewStorageEvent(ctx, "space-threshold", &cloudplatform.StorageEventArgs{
		Name:        pulumi.String(valueOr(cfg.Get("spaceEvent"), "reaching_used_space")),
		StorageName: pulumi.String(valueOr(cfg.Get("storageName"), "media")),
		Bytes:       pulumi.Int(limit),
	})
	if err != nil {
		return err
	}

	ctx.Export("projectId", project.Id())
	ctx.Export("regionId", region.Id())
	ctx.Export("clusterVersion", cluster.Version)
	ctx.Export("spaceEventUuid", space.Uuid)
	return nil
}

func valueOr(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}
