#!/usr/bin/env bash
# Builds the self-contained plugin archive of this machine's platform for
#   pulumi plugin install resource cloudplatform <version> --file <archive>
# into dist-plugin/pulumi-resource-cloudplatform-v<version>-<os>-<arch>.tar.gz and prints its path
# (`make dist` builds the archives of every platform; tools/release/pluginArchives.js says what
# an archive holds). Why an archive: the bin alone is a launcher that needs the package beside it,
# and `plugin install --file <binary>` copies only the one file.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ -f "$REPO/dist/provider/plugin/main.js" ]] || { echo "[plugin-archive] error: build first (make build)" >&2; exit 1; }
pack="$(mktemp -d)"
trap 'rm -rf "$pack"' EXIT
tarball="$(cd "$REPO" && npm pack --silent --pack-destination "$pack" | tail -n 1)"
node "$REPO/tools/release/pluginArchives.js" "$pack/$tarball" "$REPO/dist-plugin" host
