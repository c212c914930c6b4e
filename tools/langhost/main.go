// Command pulumi-language-nodejs is a small Node.js language host for the Pulumi CLI.
//
// Why it exists: Pulumi's own host lives in a separate Go module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) that the module proxy
// reachable from our machines refuses to serve, while the CLI (pkg/v3) and the SDK (sdk/v3)
// are served. The host's job is narrow: when the engine asks it to run a program it starts
// `node @pulumi/pulumi/cmd/run` with the monitor address, project, stack and config, and
// reports how the program exited; when the engine asks it to run a source-based plugin (a
// directory with PulumiPlugin.yaml `runtime: nodejs`, as `pulumi package add <dir>` does), it
// starts `node @pulumi/pulumi/cmd/run-plugin <dir>` as Pulumi's own Node.js host does and
// streams the plugin's output back. For `pulumi package add` it generates a local Node.js SDK
// and adds it to the program's package.json (packages.go). Everything else it may be asked is
// answered minimally.
// It is built on the published sdk/v3 gRPC definitions, so the wire protocol is the engine's own.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is stamped at build time with -ldflags "-X main.version=...".
var version = "3.248.0"

// bailExitCode is what @pulumi/pulumi/cmd/run exits with after it has already shown the user
// an actionable error; the engine must then not print a second, generic one.
const bailExitCode = 32

type nodeHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
}

func main() {
	host := &nodeHost{engineAddress: engineAddressFromArgs(os.Args[1:])}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start the gRPC server: %v\n", err)
		os.Exit(1)
	}
	// The engine reads the port from the first line of stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: %v\n", err)
		os.Exit(1)
	}
}

// engineAddressFromArgs returns the positional engine address; flags such as -root or -tracing
// that newer engines pass are accepted and ignored.
func engineAddressFromArgs(args []string) string {
	for i := len(args) - 1; i >= 0; i-- {
		if !strings.HasPrefix(args[i], "-") {
			return args[i]
		}
	}
	return ""
}

func (h *nodeHost) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *nodeHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// GetRequiredPlugins reports none: dynamic providers run in the bundled pulumi-nodejs plugin.
func (h *nodeHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *nodeHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *nodeHost) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *nodeHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (h *nodeHost) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("node is not on PATH: %w", err)
	}
	path, _ := exec.LookPath("node")
	return &pulumirpc.AboutResponse{Executable: path, Version: strings.TrimSpace(string(out))}, nil
}

func (h *nodeHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}

// InstallDependencies runs `npm install` in the program directory, streaming its output.
func (h *nodeHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, stream grpc.ServerStreamingServer[pulumirpc.InstallDependenciesResponse]) error {
	dir := req.GetInfo().GetProgramDirectory()
	if dir == "" {
		dir = req.GetDirectory() //nolint:staticcheck // older engines send only this field
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund")
	cmd.Dir = dir
	out := streamWriter{send: func(b []byte) error {
		return stream.Send(&pulumirpc.InstallDependenciesResponse{Stdout: b})
	}}
	cmd.Stdout, cmd.Stderr = out, out
	return cmd.Run()
}

type streamWriter struct{ send func([]byte) error }

func (w streamWriter) Write(p []byte) (int, error) {
	if err := w.send(append([]byte(nil), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Run starts the program under node and reports how it ended.
func (h *nodeHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	programDir := info.GetProgramDirectory()
	if programDir == "" {
		programDir = req.GetPwd()
	}
	runPath, err := resolveFrom(programDir, "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf(
			"could not find @pulumi/pulumi in %s (run `npm install` there): %v", programDir, err)}, nil
	}

	options := info.GetOptions().AsMap()
	args := strings.Fields(stringOption(options, "nodeargs"))
	args = append(args, runPath,
		"--monitor="+req.GetMonitorAddress(),
		"--engine="+h.engineAddress,
		"--project="+req.GetProject(),
		"--stack="+req.GetStack(),
		"--pwd="+req.GetPwd(),
		fmt.Sprintf("--parallel=%d", req.GetParallel()),
	)
	if org := req.GetOrganization(); org != "" {
		args = append(args, "--organization="+org)
	}
	if root := info.GetRootDirectory(); root != "" {
		args = append(args, "--root-directory="+root)
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	env, err := programEnv(req, options)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr

	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == bailExitCode {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf(
				"Program exited with non-zero exit code: %d", exitErr.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// RunPlugin runs a source-based Node.js plugin: `node [nodeargs] <run-plugin> <plugin dir>
// <engine args...>` in the requested working directory and environment, resolving run-plugin
// from the plugin's own node_modules. Its stdout (the plugin's port line first) and stderr are
// streamed to the engine; the process is killed when the engine cancels the call.
func (h *nodeHost) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()

	pluginDir := req.GetInfo().GetProgramDirectory()
	runPath, err := resolveFrom(pluginDir, "@pulumi/pulumi/cmd/run-plugin")
	if err != nil {
		return fmt.Errorf("could not find @pulumi/pulumi in %s (run `npm install` there): %w", pluginDir, err)
	}
	options := req.GetInfo().GetOptions().AsMap()
	args := []string{runPath}
	args = append(args, strings.Fields(stringOption(options, "nodeargs"))...)
	args = append(args, pluginDir)
	args = append(args, req.GetArgs()...)

	env := req.GetEnv()
	if v, ok := options["typescript"].(bool); ok && v {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if tsconfig := stringOption(options, "tsconfig"); tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}

	cmd := exec.CommandContext(server.Context(), "node", args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return fmt.Errorf("plugin exited with non-zero exit code: %d", exitErr.ExitCode())
		}
		return fmt.Errorf("could not run the plugin with node: %w", err)
	}
	return closer.Close()
}

// programEnv passes config the way @pulumi/pulumi reads it: JSON in PULUMI_CONFIG and
// PULUMI_CONFIG_SECRET_KEYS, TypeScript switches in PULUMI_NODEJS_*.
func programEnv(req *pulumirpc.RunRequest, options map[string]any) ([]string, error) {
	// A stack without config arrives as a nil map, which JSON-encodes as null; @pulumi/pulumi
	// reads PULUMI_CONFIG with Object.keys and fails on null, so it gets {} as Pulumi's host sends.
	values := req.GetConfig()
	if values == nil {
		values = map[string]string{}
	}
	config, err := json.Marshal(values)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secrets, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	typescript := true
	if v, ok := options["typescript"].(bool); ok {
		typescript = v
	}
	env := append(os.Environ(),
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secrets),
		fmt.Sprintf("PULUMI_NODEJS_TYPESCRIPT=%t", typescript),
	)
	if tsconfig := stringOption(options, "tsconfig"); tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}
	return env, nil
}

func stringOption(options map[string]any, key string) string {
	if v, ok := options[key].(string); ok {
		return v
	}
	return ""
}

// resolveFrom asks node itself to resolve a module from dir, so hoisting, symlinks and
// workspaces resolve exactly as they will when the program runs.
func resolveFrom(dir, module string) (string, error) {
	script := "process.stdout.write(require.resolve(process.argv[1], {paths: [process.argv[2]]}))"
	out, err := exec.Command("node", "-e", script, module, dir).Output()
	if err != nil {
		return "", err
	}
	return string(out), nil
}
