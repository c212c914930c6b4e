package main

// TestQuickstartInline runs this example's own quickstart function against a running
// simulator (or any API) through the Automation API as an inline program, so no Go language
// host is needed: up, the simulator's state right after it, a no-change preview, destroy. Each
// step prints one `RESULT <json>` line; the repository's jest test
// (tests/integration/languageExamples.test.ts) starts the simulator, builds this test binary
// (scripts/go-program.sh --test) and asserts on those lines and on the simulator.
//
// Environment: CLOUDPLATFORM_BASE_URL, CLOUDPLATFORM_TEST_API_KEY (set as secret stack
// config), PULUMI_ROOT (dir whose bin/ holds pulumi), BACKEND_DIR (a file backend),
// PULUMI_HOME, PATH (with the plugin), EXAMPLE_CONFIG (optional JSON object of stack config).
// Without them the test is skipped, so `go test ./...` in a copy of the example passes.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

func TestQuickstartInline(t *testing.T) {
	for _, k := range []string{"CLOUDPLATFORM_BASE_URL", "CLOUDPLATFORM_TEST_API_KEY", "PULUMI_ROOT", "BACKEND_DIR"} {
		if os.Getenv(k) == "" {
			t.Skipf("%s is not set: this test is driven by the repository's integration tests", k)
		}
	}
	ctx := context.Background()
	stack := openStack(t, ctx)

	evts := make(chan events.EngineEvent)
	var progress []map[string]any
	done := make(chan struct{})
	go func() {
		for e := range evts {
			if d := e.DiagnosticEvent; d != nil && strings.Contains(d.URN, "cloudplatform:index:K8sClusterUpgrade") {
				progress = append(progress, map[string]any{"urn": d.URN, "ephemeral": d.Ephemeral, "message": d.Message})
			}
		}
		close(done)
	}()
	up, err := stack.Up(ctx, optup.EventStreams(evts))
	<-done
	if err != nil {
		t.Fatal(err)
	}
	outputs := map[string]any{}
	for k, v := range up.Outputs {
		outputs[k] = v.Value
	}
	emit("up", map[string]any{"changes": up.Summary.ResourceChanges, "outputs": outputs, "progress": progress})
	emit("simulator", map[string]any{"state": simulatorState(t)})

	preview, err := stack.Preview(ctx, optpreview.ExpectNoChanges())
	if err != nil {
		t.Fatal(err)
	}
	emit("preview", map[string]any{"changes": preview.ChangeSummary})

	destroy, err := stack.Destroy(ctx, optdestroy.Remove())
	if err != nil {
		t.Fatal(err)
	}
	emit("destroy", map[string]any{"changes": destroy.Summary.ResourceChanges})
}

// openStack is the stack "test" of the inline quickstart on the file backend BACKEND_DIR, with
// the provider's config and EXAMPLE_CONFIG set.
func openStack(t *testing.T, ctx context.Context) auto.Stack {
	cmd, err := auto.NewPulumiCommand(&auto.PulumiCommandOptions{Root: os.Getenv("PULUMI_ROOT")})
	if err != nil {
		t.Fatal(err)
	}
	backend := os.Getenv("BACKEND_DIR")
	workDir := filepath.Join(backend, "..", "work")
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PULUMI_SKIP_UPDATE_CHECK": "true", "PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION": "true"}
	for _, k := range []string{"PATH", "PULUMI_HOME", "PULUMI_CONFIG_PASSPHRASE"} {
		env[k] = os.Getenv(k)
	}
	const projectName = "cloudplatform-go-quickstart" // as in Pulumi.yaml: config keys are namespaced by it
	project := workspace.Project{Name: projectName, Runtime: workspace.NewProjectRuntimeInfo("go", nil), Backend: &workspace.ProjectBackend{URL: "file://" + backend}}
	stack, err := auto.UpsertStackInlineSource(ctx, "test", projectName, quickstart,
		auto.Pulumi(cmd), auto.WorkDir(workDir), auto.PulumiHome(os.Getenv("PULUMI_HOME")), auto.EnvVars(env), auto.Project(project))
	if err != nil {
		t.Fatal(err)
	}
	config := auto.ConfigMap{
		"cloudplatform:baseUrl": {Value: os.Getenv("CLOUDPLATFORM_BASE_URL")},
		"cloudplatform:apiKey":  {Value: os.Getenv("CLOUDPLATFORM_TEST_API_KEY"), Secret: true},
	}
	if extra := os.Getenv("EXAMPLE_CONFIG"); extra != "" {
		var values map[string]string
		if err := json.Unmarshal([]byte(extra), &values); err != nil {
			t.Fatalf("EXAMPLE_CONFIG: %v", err)
		}
		for k, v := range values {
			config[k] = auto.ConfigValue{Value: v}
		}
	}
	if err := stack.SetAllConfig(ctx, config); err != nil {
		t.Fatal(err)
	}
	return stack
}

// simulatorState is the simulator's whole state (`GET /__admin/state`): what the platform holds now.
func simulatorState(t *testing.T) any {
	answer, err := http.Get(os.Getenv("CLOUDPLATFORM_BASE_URL") + "/__admin/state")
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Body.Close()
	var state any
	if err := json.NewDecoder(answer.Body).Decode(&state); err != nil {
		t.Fatal(err)
	}
	return state
}

func emit(step string, fields map[string]any) {
	fields["step"] = step
	out, _ := json.Marshal(fields)
	fmt.Println("RESULT " + string(out))
}
