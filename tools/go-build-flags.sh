# The `go build` flags of every Go binary the project builds (the Pulumi CLI and language host,
# the SDK generator, the Go test programs), sourced by the scripts that build them. One set of
# flags, so each build reuses the packages the CLI build compiled into Go's cache: a build with
# other tags compiles hundreds of them again.
# shellcheck disable=SC2034 # used by the sourcing script
GO_BUILD_FLAGS=(-buildvcs=false -trimpath -tags osusergo,grpcnotrace)
