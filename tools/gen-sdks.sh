#!/usr/bin/env bash
# Regenerates the Python, Go and Java SDKs from the plugin schema into sdk/python, sdk/go and
# sdk/java (tools/sdkgen/java/gen.sh: the Java host and a Maven build). Python and Go are what
# `pulumi package gen-sdk provider/plugin/schema.json --language python|go --out sdk` writes with
# Pulumi's released language hosts (tools/sdkgen explains why we call the generators directly).
# The generator is built once into the CLI cache, keyed by a hash of its source and go.mod/go.sum,
# with the CLI's build flags (tools/go-build-flags.sh), so it reuses the packages that build
# compiled: seconds instead of half a minute of CPU on 2 cores.
# Usage: tools/gen-sdks.sh [out dir]  (default: the repo's sdk/; a test passes a temp dir to
# check that the committed SDKs are current)
#        tools/gen-sdks.sh --build-only  (only build the generator: `make test-assets`)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
source "$HERE/go-build-flags.sh"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
HASH="$(cat "$HERE/sdkgen/main.go" "$HERE/go.mod" "$HERE/go.sum" | sha256sum | cut -c1-12)"
GEN="$CACHE_BASE/sdkgen-$HASH/sdkgen"

if [[ ! -x "$GEN" ]]; then
  command -v go >/dev/null 2>&1 || { echo "[sdks] error: Go 1.25.11+ is needed to build tools/sdkgen" >&2; exit 1; }
  echo "[sdks] building tools/sdkgen..."
  mkdir -p "$(dirname "$GEN")"
  (cd "$HERE" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local go build "${GO_BUILD_FLAGS[@]}" -o "$GEN.tmp.$$" ./sdkgen)
  mv -f "$GEN.tmp.$$" "$GEN"
fi
[[ "${1:-}" == "--build-only" ]] && exit 0

OUT="${1:-$REPO/sdk}"
# The Go and Python SDKs come from the schema's Go/Python view: the wide integers (bytes, count,
# clientId) stay `integer` there, so programs written for 0.1.0 compile and read `int` as before.
VIEW="$(mktemp -t cloudplatform-schema-go-python.XXXXXX)"
trap 'rm -f "$VIEW"' EXIT
node "$HERE/schema/generate.js" --go-python "$VIEW"
for language in python go; do
  "$GEN" "$VIEW" "$language" "$OUT"
  echo "[sdks] wrote $OUT/$language"
done
bash "$HERE/sdkgen/java/gen.sh" "$OUT/java"
echo "[sdks] wrote $OUT/java"
