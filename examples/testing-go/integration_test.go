package main

// Integration tests: the real `pulumi` CLI runs declareStack as an Automation API inline
// program, with the cloudplatform plugin, against the package's simulator, started per test
// with `cloudplatform-simulator` (the npm package's bin; set CLOUDPLATFORM_SIMULATOR to another
// command, e.g. "npx cloudplatform-simulator"). Needs the Pulumi CLI and the plugin on PATH; a
// temporary file backend keeps it off your real stacks. `go test -short` skips them.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
)

const eventPath = "/storage/notifications/v1/event"

// simulator is a running cloudplatform-simulator: its URL and key, and its admin API.
type simulator struct {
	url, apiKey string
}

// startSimulator starts one on a free port for this test and stops it when the test ends.
func startSimulator(t *testing.T) *simulator {
	t.Helper()
	command := strings.Fields(os.Getenv("CLOUDPLATFORM_SIMULATOR"))
	if len(command) == 0 {
		command = []string{"cloudplatform-simulator"}
	}
	cmd := exec.Command(command[0], append(command[1:], "--port", "0", "--time-scale", "60", "--quiet")...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %v: %v", command, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	// It prints "cloudplatform-simulator listening on <url>", then "api key: <key>".
	lines := bufio.NewScanner(stdout)
	var words [][]string
	for len(words) < 2 && lines.Scan() {
		words = append(words, strings.Fields(lines.Text()))
	}
	if len(words) < 2 || !strings.HasPrefix(words[0][len(words[0])-1], "http://") {
		t.Fatalf("%v did not start: %v", command, words)
	}
	return &simulator{url: words[0][len(words[0])-1], apiKey: words[1][len(words[1])-1]}
}

// admin makes one admin API call and decodes its JSON answer into out (when not nil).
func (s *simulator) admin(t *testing.T, method, path string, body, out any) {
	t.Helper()
	payload, _ := json.Marshal(body)
	request, _ := http.NewRequest(method, s.url+path, bytes.NewReader(payload))
	request.Header.Set("content-type", "application/json")
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	if response.StatusCode >= 300 {
		t.Fatalf("%s %s: %s", method, path, response.Status)
	}
	if out != nil {
		if err := json.NewDecoder(response.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// postStatuses is the status of every POST the simulator answered on path, in order.
func (s *simulator) postStatuses(t *testing.T, path string) []int {
	var log struct {
		Requests []struct {
			Method, Path string
			Status       int
		}
	}
	s.admin(t, "GET", "/__admin/requests", nil, &log)
	statuses := []int{}
	for _, r := range log.Requests {
		if r.Method == "POST" && (path == "" || r.Path == path) {
			statuses = append(statuses, r.Status)
		}
	}
	return statuses
}

// openStack is the stack "integration" of the inline program on a temporary file backend,
// configured for the simulator.
func openStack(t *testing.T, ctx context.Context, sim *simulator) auto.Stack {
	t.Helper()
	dir := t.TempDir()
	project := workspace.Project{Name: "testing-go", Runtime: workspace.NewProjectRuntimeInfo("go", nil), Backend: &workspace.ProjectBackend{URL: "file://" + dir}}
	env := map[string]string{"PULUMI_CONFIG_PASSPHRASE": "integration-test", "PULUMI_SKIP_UPDATE_CHECK": "true"}
	stack, err := auto.UpsertStackInlineSource(ctx, "integration", "testing-go", declareStack, auto.WorkDir(dir), auto.Project(project), auto.EnvVars(env))
	if err != nil {
		t.Fatal(err)
	}
	config := auto.ConfigMap{"cloudplatform:baseUrl": {Value: sim.url}, "cloudplatform:apiKey": {Value: sim.apiKey, Secret: true}}
	if err := stack.SetAllConfig(ctx, config); err != nil {
		t.Fatal(err)
	}
	return stack
}

func TestABadInputFailsAtPreviewBeforeAnyWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	ctx := context.Background()
	sim := startSimulator(t)
	stack := openStack(t, ctx, sim)
	if err := stack.SetConfig(ctx, "spaceEvent", auto.ConfigValue{Value: "reaching_used_requests"}); err != nil {
		t.Fatal(err)
	}
	_, err := stack.Preview(ctx)
	if err == nil || !strings.Contains(err.Error(), "reaching_used_requests takes its limit in count") {
		t.Fatalf("preview: want the provider's check failure on bytes, got %v", err)
	}
	if got := sim.postStatuses(t, ""); len(got) != 0 {
		t.Fatalf("writes sent: %v", got)
	}
}

func TestUpRefreshDestroyThroughA503OnTheThresholdsFirstCreate(t *testing.T) {
	if testing.Short() {
		t.Skip("integration test")
	}
	ctx := context.Background()
	sim := startSimulator(t)
	stack := openStack(t, ctx, sim)
	sim.admin(t, "POST", "/__admin/faults", map[string]any{"errorRate": 1, "path": eventPath, "method": "POST", "times": 1}, nil)

	up, err := stack.Up(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := up.Outputs["clusterVersion"].Value; got != "v1.31.2" {
		t.Fatalf("clusterVersion: %v", got)
	}
	var state struct {
		Clusters []struct {
			Name, Version string
		}
		StorageEvents []struct {
			UUID  string `json:"uuid"`
			Name  string `json:"name"`
			Bytes int64  `json:"bytes"`
		}
	}
	sim.admin(t, "GET", "/__admin/state", nil, &state)
	for _, c := range state.Clusters {
		if c.Name == "demo-cluster" && c.Version != "v1.31.2" {
			t.Fatalf("demo-cluster runs %s", c.Version)
		}
	}
	if len(state.StorageEvents) != 1 || state.StorageEvents[0].UUID != up.Outputs["spaceEventUuid"].Value || state.StorageEvents[0].Bytes != 500*1024*1024*1024 {
		t.Fatalf("events: %+v", state.StorageEvents)
	}
	// The 503 came before the simulator acted; the provider checked, then created it once.
	if got := sim.postStatuses(t, eventPath); !reflect.DeepEqual(got, []int{503, 200}) {
		t.Fatalf("event POSTs: %v", got)
	}

	if _, err := stack.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	preview, err := stack.Preview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for op := range preview.ChangeSummary {
		if op != "same" {
			t.Fatalf("changes after refresh: %v", preview.ChangeSummary)
		}
	}

	if _, err := stack.Destroy(ctx); err != nil {
		t.Fatal(err)
	}
	sim.admin(t, "GET", "/__admin/state", nil, &state)
	if len(state.StorageEvents) != 0 {
		t.Fatalf("events left: %+v", state.StorageEvents)
	}
	if err := stack.Workspace().RemoveStack(ctx, "integration"); err != nil {
		t.Fatal(err)
	}
}
