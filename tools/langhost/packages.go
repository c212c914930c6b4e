// What `pulumi package add <provider>` asks of the Node.js language host: generate a local
// SDK from the provider's schema (GeneratePackage) and make it part of the program (Link). The
// CLI then calls InstallDependencies, which runs `npm install` (main.go).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GeneratePackage writes the Node.js SDK of the schema in req into req.Directory with Pulumi's
// own Node.js code generator, resolving referenced packages through the engine's schema loader.
// A local SDK (req.Local, as `package add` asks for) compiles itself with tsc on install.
func (h *nodeHost) GeneratePackage(ctx context.Context, req *pulumirpc.GeneratePackageRequest) (*pulumirpc.GeneratePackageResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, fmt.Errorf("could not connect to the engine's schema loader: %w", err)
	}
	defer loader.Close()

	var spec schema.PackageSpec
	if err := json.Unmarshal([]byte(req.GetSchema()), &spec); err != nil {
		return nil, fmt.Errorf("the schema to generate an SDK from is not valid JSON: %w", err)
	}
	cached := schema.NewCachedLoader(loader)
	pkg, diags, err := schema.BindSpec(spec, cached, schema.ValidationOptions{AllowDanglingReferences: true})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
	}

	files, err := nodejs.GeneratePackage("pulumi-language-nodejs", pkg, req.GetExtraFiles(), req.GetLocalDependencies(), req.GetLocal(), cached)
	if err != nil {
		return nil, err
	}
	for name, content := range files {
		path := filepath.Join(req.GetDirectory(), name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return nil, err
		}
	}
	return &pulumirpc.GeneratePackageResponse{Diagnostics: plugin.HclDiagnosticsToRPCDiagnostics(diags)}, nil
}

// Link adds each generated SDK to the program's package.json as a `file:` dependency, so the
// `npm install` the CLI runs next links it into node_modules and runs its postinstall script,
// which compiles it (npm runs a `file:` directory dependency's scripts without an allowScripts
// entry, even though npm 11's summary lists it as not covered).
func (h *nodeHost) Link(ctx context.Context, req *pulumirpc.LinkRequest) (*pulumirpc.LinkResponse, error) {
	dir := req.GetInfo().GetProgramDirectory()
	var instructions strings.Builder
	instructions.WriteString("You can then import the SDK in your TypeScript code with:\n\n")
	for _, dep := range req.GetPackages() {
		sdkDir := dep.GetPath()
		if !filepath.IsAbs(sdkDir) {
			sdkDir = filepath.Join(dir, sdkDir)
		}
		name, err := npmPackageName(sdkDir)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(dir, sdkDir)
		if err != nil {
			return nil, err
		}
		if err := addDependency(ctx, dir, name, "file:"+filepath.ToSlash(rel)); err != nil {
			return nil, err
		}
		fmt.Fprintf(&instructions, "  import * as %s from %q;\n", importAlias(dep.GetPackage().GetName()), name)
	}
	return &pulumirpc.LinkResponse{ImportInstructions: instructions.String()}, nil
}

// npmPackageName reads the name the generated SDK's package.json gives it.
func npmPackageName(sdkDir string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(sdkDir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("the generated SDK in %s has no package.json: %w", sdkDir, err)
	}
	var manifest struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil || manifest.Name == "" {
		return "", fmt.Errorf("the generated SDK's package.json in %s has no name", sdkDir)
	}
	return manifest.Name, nil
}

// addDependency records dependencies[name] = spec with `npm pkg set`, which keeps the rest of
// the user's package.json as it was.
func addDependency(ctx context.Context, dir, name, spec string) error {
	quoted, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "npm", "pkg", "set", "--json", fmt.Sprintf("dependencies[%s]=%s", name, quoted))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("could not add %s to %s: %w\n%s", name, filepath.Join(dir, "package.json"), err, out)
	}
	return nil
}

// importAlias is the package's name as a JavaScript identifier, for the import instructions.
func importAlias(pkg string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '.' {
			return '_'
		}
		return r
	}, pkg)
}
