#!/usr/bin/env bash
# Builds the Go Automation API test program (tests/integration/programs/go-plugin, on the
# generated sdk/go) and prints the binary's path. Cached outside the repo
# (~/.cache/pulumi-cloudplatform/go-program-<hash>) until the program, sdk/go or go.sum change.
# Built with the CLI's flags (-trimpath, osusergo,grpcnotrace) so the Go build cache the CLI
# build filled is reused: seconds instead of minutes on 2 cores.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PROGRAM="$REPO/tests/integration/programs/go-plugin"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
HASH="$(find "$PROGRAM" "$REPO/sdk/go" "$REPO/sdk/go.mod" "$REPO/sdk/go.sum" -type f | sort | xargs cat | sha256sum | cut -c1-12)"
BIN="$CACHE_BASE/go-program-$HASH/go-plugin"

if [[ ! -x "$BIN" ]]; then
  command -v go >/dev/null 2>&1 || { echo "[go-program] error: Go 1.25+ is needed" >&2; exit 1; }
  echo "[go-program] building $BIN..." >&2
  mkdir -p "$(dirname "$BIN")"
  (cd "$PROGRAM" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local go build -buildvcs=false -trimpath -tags osusergo,grpcnotrace -o "$BIN.tmp" .) >&2
  mv "$BIN.tmp" "$BIN"
fi
echo "$BIN"
