// Command sdkgen writes the Python or Go SDK of a Pulumi package schema, as
// `pulumi package gen-sdk <schema> --language python|go --out <dir>` does.
//
// Why it exists: `pulumi package gen-sdk` asks the language's host (pulumi-language-python,
// pulumi-language-go) to generate the SDK, and the module proxy we build from does not serve
// those hosts. They only validate the schema and call Pulumi's own code generators from
// pkg/v3/codegen, which the proxy does serve; this command does the same with the same
// generators and tool names, so the output is what `gen-sdk` writes with the released hosts.
//
// Usage: sdkgen <schema.json> <python|go> <out dir>  (writes <out dir>/<language>/...)
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/blang/semver"
)

// selfContained is the schema loader: the cloudplatform schema references no other package, so
// any attempt to load one is a schema error, not a reason to start plugins.
type selfContained struct{}

func (selfContained) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %q; only self-contained schemas are supported", pkg)
}

func (selfContained) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema references package %q; only self-contained schemas are supported", d.Name)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen <schema.json> <python|go> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, language, outDir string) error {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, selfContained{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s is not a valid package schema: %s", schemaPath, diags.Error())
	}

	var files map[string][]byte
	switch language {
	case "python":
		files, err = pygen.GeneratePackage("pulumi-language-python", pkg, nil, nil)
	case "go":
		files, err = gogen.GeneratePackage("pulumi-language-go", pkg, nil)
	default:
		return fmt.Errorf("unsupported language %q (python or go)", language)
	}
	if err != nil {
		return err
	}

	target := filepath.Join(outDir, language)
	if err := os.RemoveAll(target); err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(target, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
