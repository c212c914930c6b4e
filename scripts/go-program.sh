#!/usr/bin/env bash
# Builds a Go Automation API program of the tests and prints the binary's path:
#   go-program.sh               tests/integration/programs/go-plugin (its main package)
#   go-program.sh --test DIR    the test binary of DIR (go test -c), for an example whose main
#                               package stays a normal `pulumi.Run` program and whose test runs
#                               the same program function inline (examples/go-quickstart)
# Cached outside the repo (~/.cache/pulumi-cloudplatform/go-program-<name>-<hash>) until the
# program, sdk/go or the SDK's go.mod/go.sum change. Built with the CLI's flags
# (tools/go-build-flags.sh) so the Go build cache the CLI build filled is reused: seconds instead
# of minutes on 2 cores.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$REPO/tools/go-build-flags.sh"
MODE=build
if [[ "${1:-}" == "--test" ]]; then
  MODE=test
  shift
  [[ $# -eq 1 ]] || { echo "usage: go-program.sh [--test DIR]" >&2; exit 2; }
fi
PROGRAM="$(cd "${1:-$REPO/tests/integration/programs/go-plugin}" && pwd)"
NAME="$(basename "$PROGRAM")"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
HASH="$( (echo "$MODE"; find "$PROGRAM" "$REPO/sdk/go" "$REPO/sdk/go.mod" "$REPO/sdk/go.sum" -type f | sort | xargs cat) | sha256sum | cut -c1-12)"
BIN="$CACHE_BASE/go-program-$NAME-$HASH/$NAME"

if [[ ! -x "$BIN" ]]; then
  command -v go >/dev/null 2>&1 || { echo "[go-program] error: Go 1.25.11+ is needed" >&2; exit 1; }
  echo "[go-program] building $BIN..." >&2
  mkdir -p "$(dirname "$BIN")"
  flags=("${GO_BUILD_FLAGS[@]}" -o "$BIN.tmp.$$")
  if [[ "$MODE" == test ]]; then
    (cd "$PROGRAM" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local go test -c "${flags[@]}" .) >&2
  else
    (cd "$PROGRAM" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local go build "${flags[@]}" .) >&2
  fi
  mv -f "$BIN.tmp.$$" "$BIN"
fi
echo "$BIN"
