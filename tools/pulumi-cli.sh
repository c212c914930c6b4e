#!/usr/bin/env bash
# Provides the Pulumi CLI for tests and the demo, offline:
#   <root>/bin/pulumi                          the CLI (v3.248.0, or an installed one that is newer)
#   <root>/bin/pulumi-language-nodejs          the Node.js language host
#   <root>/bin/pulumi-language-yaml            the YAML language host (pulumi-yaml v1.25.0)
#   <root>/bin/pulumi-language-java            the Java language host (pulumi-java v1.13.0)
#   <root>/bin/pulumi-resource-pulumi-nodejs   the dynamic-provider launcher from @pulumi/pulumi
# <root> is outside the repo (default ~/.cache/pulumi-cloudplatform/cli-v3.248.0/host-<hash>/
# checkout-<path hash>), so a second run, a fresh clone or `make clean` reuses what it holds. The
# CLI itself is built once into cli-v3.248.0/bin and hard-linked into each host-<hash>/bin;
# <hash> is that of tools/langhost, tools/go.{mod,sum} and tools/{yaml,java}host/go.{mod,sum}, so a
# changed language host gets its own (built in seconds to a minute) and checkouts with different
# hosts never overwrite each other's. Each checkout's <root>/bin hard-links those binaries and
# links the launcher of its own node_modules: two clones never run each other's @pulumi/pulumi,
# and a clone that is deleted leaves no other checkout with a dangling launcher. The YAML host is its own module (tools/yamlhost): pulumi-yaml v1.25.0 compiles only
# against Pulumi v3.206.0, and a host is a separate process, so its pins do not touch the CLI's.
# The Java host likewise (tools/javahost): pulumi-java v1.13.0 compiles only against v3.175.0, and
# it is the newest release the module proxy and checksum database serve complete.
# `--print-root` prints <root>.
# `--no-launcher` builds the CLI and language hosts without linking the launcher, so the Go build
# can run before (or beside) `npm ci`; a later call without it links the launcher in a moment.
set -euo pipefail

VERSION=3.248.0
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
source "$HERE/go-build-flags.sh"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
BASE="$CACHE_BASE/cli-v$VERSION"
CLI_BIN="$BASE/bin"
HOST_HASH="$(cat "$HERE"/langhost/*.go "$HERE/go.mod" "$HERE/go.sum" "$HERE/yamlhost/go.mod" "$HERE/yamlhost/go.sum" \
  "$HERE/javahost/go.mod" "$HERE/javahost/go.sum" | sha256sum | cut -c1-12)"
YAML_VERSION=1.25.0
JAVA_VERSION=1.13.0
HOST_BIN="$BASE/host-$HOST_HASH/bin"
ROOT="$BASE/host-$HOST_HASH/checkout-$(printf '%s' "$REPO" | sha256sum | cut -c1-12)"
BIN="$ROOT/bin"

if [[ "${1:-}" == "--print-root" ]]; then echo "$ROOT"; exit 0; fi
WITH_LAUNCHER=true
if [[ "${1:-}" == "--no-launcher" ]]; then WITH_LAUNCHER=false; fi

say() { echo "[pulumi-cli] $*"; }
die() { echo "[pulumi-cli] error: $*" >&2; exit 1; }

dynamic_launcher="$REPO/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
if $WITH_LAUNCHER && [[ ! -x "$dynamic_launcher" ]]; then
  die "node_modules/@pulumi/pulumi is missing: run 'npm ci' (or 'make setup') first."
fi

# version_ge A B: true when semver A >= B.
version_ge() { [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" == "$2" ]]; }

# This checkout's bin: the shared binaries (hard links, or the installed CLI's symlinks copied:
# the engine looks for the language hosts beside the `pulumi` it runs as) and its own launcher.
link_checkout() {
  local f
  for f in pulumi pulumi-language-nodejs pulumi-language-yaml pulumi-language-java; do
    if [[ -L "$HOST_BIN/$f" ]]; then ln -sfn "$(readlink -f "$HOST_BIN/$f")" "$BIN/$f"
    else ln -f "$HOST_BIN/$f" "$BIN/$f" 2>/dev/null || cp "$HOST_BIN/$f" "$BIN/$f"; fi
  done
  if $WITH_LAUNCHER; then ln -sfn "$dynamic_launcher" "$BIN/pulumi-resource-pulumi-nodejs"; fi
  rm -f "$HOST_BIN/pulumi-resource-pulumi-nodejs" # where older versions of this script linked one launcher for all checkouts
}

mkdir -p "$BIN" "$HOST_BIN" "$CLI_BIN"

# 1. The cache already holds a working CLI with this checkout's language host.
if [[ -x "$HOST_BIN/pulumi" && -x "$HOST_BIN/pulumi-language-nodejs" && -x "$HOST_BIN/pulumi-language-yaml" \
  && -x "$HOST_BIN/pulumi-language-java" ]] \
  && [[ "$("$HOST_BIN/pulumi" version 2>/dev/null)" == v* ]]; then
  link_checkout
  say "using cached $("$BIN/pulumi" version) in $BIN"
  exit 0
fi

# 2. An installed pulumi of a suitable version, with its language host beside it. Its own YAML
#    and Java hosts are used as they are; without them, ours are built (step 3 builds only those).
INSTALLED_CLI=false
if command -v pulumi >/dev/null 2>&1; then
  installed="$(pulumi version 2>/dev/null | sed 's/^v//')"
  host_dir="$(dirname "$(readlink -f "$(command -v pulumi)")")"
  if [[ -n "$installed" ]] && version_ge "$installed" "$VERSION" && [[ -x "$host_dir/pulumi-language-nodejs" ]]; then
    ln -sfn "$(readlink -f "$(command -v pulumi)")" "$HOST_BIN/pulumi"
    ln -sfn "$host_dir/pulumi-language-nodejs" "$HOST_BIN/pulumi-language-nodejs"
    if [[ -x "$host_dir/pulumi-language-yaml" && -x "$host_dir/pulumi-language-java" ]]; then
      ln -sfn "$host_dir/pulumi-language-yaml" "$HOST_BIN/pulumi-language-yaml"
      ln -sfn "$host_dir/pulumi-language-java" "$HOST_BIN/pulumi-language-java"
      link_checkout
      say "using installed pulumi v$installed (and its YAML and Java hosts) from $host_dir"
      exit 0
    fi
    say "using installed pulumi v$installed from $host_dir; it lacks pulumi-language-yaml or -java, building pulumi-yaml v$YAML_VERSION and pulumi-java v$JAVA_VERSION"
    INSTALLED_CLI=true
  else
    say "installed pulumi ${installed:-?} is older than v$VERSION or lacks pulumi-language-nodejs; building v$VERSION"
  fi
fi

# 3. Build from Pulumi's published Go modules through tools/go.mod and tools/yamlhost/go.mod
#    (both go.sum files are complete, so the checksum database is never consulted; only the Go
#    module proxy is used).
command -v go >/dev/null 2>&1 || die "Go is not installed. Install Go 1.25.11 or newer (https://go.dev/dl/, or your package manager), or put a pulumi v$VERSION+ CLI with pulumi-language-nodejs and pulumi-language-yaml on PATH."
go_version="$(go env GOVERSION | sed 's/^go//')"
version_ge "$go_version" "1.25.11" || die "Go $go_version is too old; Go 1.25.11 or newer is needed to build the Pulumi CLI (the go directive of Pulumi's own modules)."
[[ "$(go env GOPROXY)" != "off" ]] || die "GOPROXY is 'off'. Set GOPROXY to a Go module proxy (e.g. the default https://proxy.golang.org) so the Pulumi modules can be fetched."

export GOFLAGS="-mod=readonly"
export GOTOOLCHAIN=local

download() { # download <module dir> <what> <how to regenerate its go.sum>
  say "downloading $2 Go modules through $(go env GOPROXY) (first run only)..."
  if ! (cd "$1" && go mod download) 2>&1 | sed 's/^/[pulumi-cli]   /'; then
    die "could not download the Go modules. Check that GOPROXY ($(go env GOPROXY)) is reachable. If the error mentions the checksum database (sum.golang.org), $1/go.sum is incomplete: regenerate it with '$3' on a machine that can reach it."
  fi
}

build() { # build <module dir> <output> <package> <ldflags> <how long>
  local dir="$1" out="$2" pkg="$3" ldflags="$4" count=0 line
  say "compiling $(basename "$out") ($5)..."
  # -v prints each package as it is compiled; show a running count instead of hundreds of lines.
  (cd "$dir" && go build -v "${GO_BUILD_FLAGS[@]}" -ldflags "$ldflags" -o "$out.tmp" "$pkg") 2>&1 |
    while IFS= read -r line; do
      if [[ "$line" == *:* && "$line" != github.com* && "$line" != golang.org* ]]; then echo "$line" >&2; continue; fi
      count=$((count + 1))
      if (( count % 100 == 0 )); then say "  ...$count packages compiled"; fi
    done
  [[ -x "$out.tmp" ]] || die "building $pkg failed (see the compiler output above)."
  mv "$out.tmp" "$out"
}

# The hosts' modules are fetched beside the CLI's build (network beside CPU); the `download` calls
# below then find them in the module cache, or report what failed.
(cd "$HERE/yamlhost" && go mod download) >/dev/null 2>&1 &
(cd "$HERE/javahost" && go mod download) >/dev/null 2>&1 &
if ! $INSTALLED_CLI; then
  download "$HERE" "Pulumi v$VERSION" "cd tools && GONOSUMDB=github.com/pulumi/pulumi/pkg go mod tidy"
  build "$HERE" "$HOST_BIN/pulumi-language-nodejs" ./langhost "-w -s -X main.version=$VERSION" "seconds once the CLI is built"
  if ! [[ -x "$CLI_BIN/pulumi" && "$("$CLI_BIN/pulumi" version 2>/dev/null)" == v* ]]; then
    build "$HERE" "$CLI_BIN/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
      "-w -s -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$VERSION" \
      "the first build takes several minutes on 2 cores"
  fi
  # A hard link, not a symlink: the engine looks for plugins beside the resolved `pulumi`, which
  # must be this host's bin (with its language hosts), not the shared CLI_BIN.
  ln -f "$CLI_BIN/pulumi" "$HOST_BIN/pulumi" 2>/dev/null || cp "$CLI_BIN/pulumi" "$HOST_BIN/pulumi"
fi
wait
# The YAML and Java hosts: built last, so most of their packages are already in Go's build cache.
download "$HERE/yamlhost" "pulumi-yaml v$YAML_VERSION" "cd tools/yamlhost && GOFLAGS=-mod=mod go mod tidy"
build "$HERE/yamlhost" "$HOST_BIN/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml \
  "-w -s -X github.com/pulumi/pulumi-yaml/pkg/version.Version=v$YAML_VERSION" "about a minute the first time"
download "$HERE/javahost" "pulumi-java v$JAVA_VERSION" "cd tools/javahost && GOFLAGS=-mod=mod go mod tidy"
build "$HERE/javahost" "$HOST_BIN/pulumi-language-java" github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java \
  "-w -s -X github.com/pulumi/pulumi-java/pkg/version.Version=v$JAVA_VERSION" "about a minute the first time"
link_checkout
say "ready: $("$BIN/pulumi" version) in $BIN (+ pulumi-language-nodejs, pulumi-language-yaml v$YAML_VERSION, pulumi-language-java v$JAVA_VERSION)"
