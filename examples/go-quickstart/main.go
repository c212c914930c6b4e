// Quickstart in Go: find the default project and a Kubernetes-capable region, list its
// clusters, upgrade a cluster to its next permitted version, and create two storage
// notification thresholds. The same program as examples/quickstart (TypeScript), on the
// generated Go SDK and the cloudplatform plugin.
//
// Runs unchanged against a real account: set cloudplatform:baseUrl and (as a secret)
// cloudplatform:apiKey, and the config values below to your own cluster and storage.
package main

import (
	"github.com/pulumi-cloudplatform/pulumi-cloudplatform/sdk/go/cloudplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(quickstart)
}

// quickstart is the whole program; quickstart_test.go runs the same function through the
// Automation API.
func quickstart(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "")
	regionName := valueOr(cfg.Get("regionName"), "Luxembourg-2")
	clusterName := valueOr(cfg.Get("clusterName"), "demo-cluster")
	targetVersion := valueOr(cfg.Get("targetVersion"), "v1.31.2")
	storageName := valueOr(cfg.Get("storageName"), "demo-storage")
	bucketName := valueOr(cfg.Get("bucketName"), "demo-bucket")

	project := cloudplatform.GetProjectOutput(ctx, cloudplatform.GetProjectOutputArgs{})
	region := cloudplatform.GetRegionOutput(ctx, cloudplatform.GetRegionOutputArgs{
		Name:   pulumi.String(regionName),
		HasK8s: pulumi.Bool(true),
	})

	// The clusters there: `pulumi stack output clusterNames` shows what `clusterName` may be.
	clusters := cloudplatform.GetK8sClustersOutput(ctx, cloudplatform.GetK8sClustersOutputArgs{
		ProjectId: project.Id(),
		RegionId:  region.Id(),
	})

	clusterVersion, err := cloudplatform.NewK8sClusterUpgrade(ctx, "cluster-version", &cloudplatform.K8sClusterUpgradeArgs{
		ProjectId:   project.Id(),
		RegionId:    region.Id(),
		ClusterName: pulumi.String(clusterName),
		Version:     pulumi.String(targetVersion),
	})
	if err != nil {
		return err
	}

	storageSpace, err := cloudplatform.NewStorageEvent(ctx, "storage-space", &cloudplatform.StorageEventArgs{
		Name:        pulumi.String("reaching_used_space"),
		StorageName: pulumi.String(storageName),
		Bytes:       pulumi.Int(500 * 1024 * 1024 * 1024),
	})
	if err != nil {
		return err
	}

	bucketRequests, err := cloudplatform.NewStorageEvent(ctx, "bucket-requests", &cloudplatform.StorageEventArgs{
		Name:        pulumi.String("reaching_used_requests"),
		StorageName: pulumi.String(storageName),
		BucketName:  pulumi.String(bucketName),
		Count:       pulumi.Int(1_000_000),
	})
	if err != nil {
		return err
	}

	ctx.Export("projectName", project.Name())
	ctx.Export("regionDisplayName", region.DisplayName())
	ctx.Export("cluster", pulumi.String(clusterName))
	ctx.Export("clusterNames", clusters.Names())
	ctx.Export("clusterRunning", clusterVersion.Version)
	ctx.Export("clusterPreviousVersion", clusterVersion.PreviousVersion)
	ctx.Export("clusterStatus", clusterVersion.Status)
	ctx.Export("storageSpaceEvent", storageSpace.Uuid)
	ctx.Export("bucketRequestsEvent", bucketRequests.Uuid)
	return nil
}

// valueOr is value, or fallback when value is empty (a config key not set).
func valueOr(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}
