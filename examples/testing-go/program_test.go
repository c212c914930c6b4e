package main

// Unit tests under Pulumi's mocks: no engine, no plugin, no network. Every resource
// registration goes to NewResource and every lookup (a function of the plugin's schema) to
// Call; the tests check what the program asks for and what it declares.
//
// No provider runs under mocks, so the provider's own input checks (a limit of the wrong kind,
// a malformed version) are not here: integration_test.go previews a bad input against the
// simulator.

import (
	"fmt"
	"reflect"
	"sort"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// mocks records what the program registered and looked up, and answers the lookups.
type mocks struct {
	mu        sync.Mutex
	resources []pulumi.MockResourceArgs
	calls     []pulumi.MockCallArgs
}

// answers are what the mocked lookups return, by function token.
var answers = map[string]map[string]any{
	"cloudplatform:index:getProject": {"id": 1, "name": "default", "isDefault": true},
	"cloudplatform:index:getRegion":  {"id": 76, "displayName": "Luxembourg-2", "state": "ACTIVE"},
}

func (m *mocks) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.resources = append(m.resources, args)
	state := args.Inputs.Copy()
	if args.TypeToken == "cloudplatform:index:StorageEvent" {
		state["uuid"] = resource.NewStringProperty(args.Name + "-uuid") // the provider would compute it
	}
	return args.Name + "-id", state, nil
}

func (m *mocks) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, args)
	return resource.NewPropertyMapFromMap(answers[args.Token]), nil
}

// run declares the stack under fresh mocks; RunErr returns once every registration is done.
func run(t *testing.T) *mocks {
	t.Helper()
	m := &mocks{}
	if err := pulumi.RunErr(declareStack, pulumi.WithMocks("testing-go", "unit", m)); err != nil {
		t.Fatal(err)
	}
	return m
}

// inputsOf is the inputs of the one resource of typeToken, as plain values.
func inputsOf(t *testing.T, m *mocks, typeToken string) map[string]any {
	t.Helper()
	var found []map[string]any
	for _, r := range m.resources {
		if r.TypeToken == typeToken {
			found = append(found, r.Inputs.Mappable())
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s, got %d", typeToken, len(found))
	}
	return found[0]
}

func TestLookupsAskForTheDefaultProjectAndAKubernetesRegion(t *testing.T) {
	m := run(t)
	var got []string
	for _, c := range m.calls {
		got = append(got, fmt.Sprintf("%s %v", c.Token, c.Args.Mappable()))
	}
	sort.Strings(got) // lookups run concurrently: compare them in token order
	want := []string{
		"cloudplatform:index:getProject map[]",
		"cloudplatform:index:getRegion map[hasK8s:true name:Luxembourg-2]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lookups: got %q, want %q", got, want)
	}
}

func TestResourcesGetWhatTheLookupsAndTheConfigSay(t *testing.T) {
	m := run(t)
	cluster := inputsOf(t, m, "cloudplatform:index:K8sClusterUpgrade")
	wantCluster := map[string]any{"projectId": 1.0, "regionId": 76.0, "clusterName": "demo-cluster", "version": "v1.31.2"}
	if !reflect.DeepEqual(cluster, wantCluster) {
		t.Fatalf("K8sClusterUpgrade inputs: got %v, want %v", cluster, wantCluster)
	}
	event := inputsOf(t, m, "cloudplatform:index:StorageEvent")
	wantEvent := map[string]any{"name": "reaching_used_space", "storageName": "media", "bytes": float64(500 * 1024 * 1024 * 1024)}
	if !reflect.DeepEqual(event, wantEvent) {
		t.Fatalf("StorageEvent inputs: got %v, want %v", event, wantEvent)
	}
}
