#!/usr/bin/env bash
# Builds the self-contained plugin archive for
#   pulumi plugin install resource cloudplatform <version> --file <archive>
# into dist-plugin/pulumi-resource-cloudplatform-v<version>-<os>-<arch>.tar.gz and prints its path.
# The archive holds the packed package with its production dependencies (node_modules, from
# npm's cache or registry) and, at its root, the `pulumi-resource-cloudplatform` launcher the
# engine runs (Node.js must be on PATH). Why an archive: the bin alone is a launcher that needs
# the package beside it, and `plugin install --file <binary>` copies only the one file.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION="$(node -p 'require(process.argv[1]).version' "$REPO/package.json")"
OS="$(uname -s | tr '[:upper:]' '[:lower:]')"
ARCH="$(uname -m)"; case "$ARCH" in x86_64) ARCH=amd64 ;; aarch64) ARCH=arm64 ;; esac
OUT="$REPO/dist-plugin"
ARCHIVE="$OUT/pulumi-resource-cloudplatform-v$VERSION-$OS-$ARCH.tar.gz"

[[ -f "$REPO/dist/provider/plugin/main.js" ]] || { echo "[plugin-archive] error: build first (make build)" >&2; exit 1; }
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
(cd "$REPO" && npm pack --silent --pack-destination "$stage" >/dev/null)
echo '{"name":"cloudplatform-plugin","private":true}' > "$stage/package.json"
(cd "$stage" && npm install --omit=dev --no-audit --no-fund --no-package-lock --silent ./pulumi-cloudplatform-"$VERSION".tgz >&2)
rm "$stage"/pulumi-cloudplatform-*.tgz "$stage/package.json"
cat > "$stage/pulumi-resource-cloudplatform" <<'LAUNCHER'
#!/bin/sh
# The cloudplatform plugin as installed from its archive: the package is in node_modules beside this file.
here=$(dirname "$(readlink -f "$0")")
exec node "$here/node_modules/pulumi-cloudplatform/dist/provider/plugin/main.js" "$@"
LAUNCHER
chmod +x "$stage/pulumi-resource-cloudplatform"
mkdir -p "$OUT"
tar -czf "$ARCHIVE" -C "$stage" .
echo "$ARCHIVE"
