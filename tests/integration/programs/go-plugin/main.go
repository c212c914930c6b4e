// Command go-plugin is a Go program on the generated SDK (sdk/go) that drives the cloudplatform
// plugin as an Automation API inline program (no Go language host is needed for that): three
// lookups, one K8sClusterUpgrade and one StorageEvent; up, a no-change preview, destroy. Each
// step prints `RESULT <json>`; tests/integration/goProgram.test.ts asserts on them.
//
// Environment: CLOUDPLATFORM_BASE_URL, CLOUDPLATFORM_TEST_API_KEY (set as secret stack config),
// PULUMI_ROOT (dir whose bin/ holds pulumi), BACKEND_DIR, PULUMI_HOME, PATH (with the plugin).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pulumi-cloudplatform/pulumi-cloudplatform/sdk/go/cloudplatform"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func emit(step string, fields map[string]any) {
	fields["step"] = step
	out, _ := json.Marshal(fields)
	fmt.Println("RESULT " + string(out))
}

func program(ctx *pulumi.Context) error {
	project, err := cloudplatform.GetProject(ctx, &cloudplatform.GetProjectArgs{})
	if err != nil {
		return err
	}
	region76 := 76
	region, err := cloudplatform.GetRegion(ctx, &cloudplatform.GetRegionArgs{Id: &region76})
	if err != nil {
		return err
	}
	cluster, err := cloudplatform.GetK8sCluster(ctx, &cloudplatform.GetK8sClusterArgs{ProjectId: project.Id, RegionId: region.Id, ClusterName: "demo-cluster"})
	if err != nil {
		return err
	}
	upgrade, err := cloudplatform.NewK8sClusterUpgrade(ctx, "demo", &cloudplatform.K8sClusterUpgradeArgs{
		ProjectId:   pulumi.Int(project.Id),
		RegionId:    pulumi.Int(region.Id),
		ClusterName: pulumi.String(cluster.Name),
		Version:     pulumi.String("v1.31.2"),
	})
	if err != nil {
		return err
	}
	event, err := cloudplatform.NewStorageEvent(ctx, "media-space", &cloudplatform.StorageEventArgs{
		Name:        pulumi.String("reaching_used_space"),
		StorageName: pulumi.String("media"),
		Bytes:       pulumi.Int(500000000),
	})
	if err != nil {
		return err
	}
	ctx.Export("projectId", pulumi.Int(project.Id))
	ctx.Export("regionName", pulumi.String(region.DisplayName))
	ctx.Export("clusterVersionSeen", pulumi.StringPtrFromPtr(cluster.Version))
	ctx.Export("upgradePath", upgrade.UpgradePath)
	ctx.Export("uuid", event.Uuid)
	return nil
}

func run() error {
	ctx := context.Background()
	root := os.Getenv("PULUMI_ROOT")
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: root})
	if err != nil {
		return err
	}
	backend := os.Getenv("BACKEND_DIR")
	workDir := filepath.Join(backend, "..", "work")
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		return err
	}
	env := map[string]string{"PULUMI_SKIP_UPDATE_CHECK": "true", "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true"}
	for _, k := range []string{"PATH", "PULUMI_HOME", "PULUMI_CONFIG_PASSPHRASE"} {
		env[k] = os.Getenv(k)
	}
	project := workspace.Project{Name: "go-plugin", Runtime: workspace.NewProjectRuntimeInfo("go", nil), Backend: &workspace.ProjectBackend{URL: "file://" + backend}}
	stack, err := auto.UpsertStackInlineSource(ctx, "test", "go-plugin", program,
		auto.Pulumi(cmd), auto.WorkDir(workDir), auto.PulumiHome(os.Getenv("PULUMI_HOME")), auto.EnvVars(env), auto.Project(project))
	if err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "cloudplatform:baseUrl", auto.ConfigValue{Value: os.Getenv("CLOUDPLATFORM_BASE_URL")}); err != nil {
		return err
	}
	if err := stack.SetConfig(ctx, "cloudplatform:apiKey", auto.ConfigValue{Value: os.Getenv("CLOUDPLATFORM_TEST_API_KEY"), Secret: true}); err != nil {
		return err
	}

	evts := make(chan events.EngineEvent)
	var progress []map[string]any
	done := make(chan struct{})
	go func() {
		for e := range evts {
			if d := e.DiagnosticEvent; d != nil && strings.Contains(d.URN, "K8sClusterUpgrade") {
				progress = append(progress, map[string]any{"urn": d.URN, "ephemeral": d.Ephemeral, "message": d.Message})
			}
		}
		close(done)
	}()
	up, err := stack.Up(ctx, optup.EventStreams(evts))
	<-done
	if err != nil {
		return err
	}
	outputs := map[string]any{}
	for k, v := range up.Outputs {
		outputs[k] = v.Value
	}
	emit("up", map[string]any{"changes": up.Summary.ResourceChanges, "outputs": outputs, "progress": progress})

	preview, err := stack.Preview(ctx, optpreview.ExpectNoChanges())
	if err != nil {
		return err
	}
	emit("preview", map[string]any{"changes": preview.ChangeSummary})

	destroy, err := stack.Destroy(ctx, optdestroy.Remove())
	if err != nil {
		return err
	}
	emit("destroy", map[string]any{"changes": destroy.Summary.ResourceChanges})
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ERROR "+err.Error())
		os.Exit(1)
	}
}
