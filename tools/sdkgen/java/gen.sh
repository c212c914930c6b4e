#!/usr/bin/env bash
# Writes the Java SDK into <out dir> (tools/gen-sdks.sh passes sdk/java): the sources
# `pulumi package gen-sdk provider/plugin/schema.json --language java` generates with the Java
# host of `make pulumi-cli` (pulumi-java v1.13.0), without its Gradle files, and a Maven build
# from this directory: pom.xml (the version package.json's) and the two classpath resources the
# SDK reads at start-up, version.txt and plugin.json, which Maven writes with the pom's version
# (and `server`, the plugin download URL, when the schema has one).
# Usage: tools/sdkgen/java/gen.sh <out dir>
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../../.." && pwd)"
OUT="${1:?usage: gen.sh <out dir>}"
SCHEMA="$REPO/provider/plugin/schema.json"
BIN="${CLOUDPLATFORM_PULUMI_ROOT:-$(bash "$REPO/tools/pulumi-cli.sh" --print-root)}/bin"
[[ -x "$BIN/pulumi-language-java" ]] || { echo "[sdks] error: no Java host in $BIN: run 'make pulumi-cli' first" >&2; exit 1; }

VERSION="$(node -p 'require(process.argv[1]).version' "$SCHEMA")"
URL="$(node -p 'require(process.argv[1]).pluginDownloadURL ?? ""' "$SCHEMA")"
WORK="$(mktemp -d -t cloudplatform-java-sdk.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
# Its own PULUMI_HOME: generating from a schema file needs no plugins, credentials or updates.
PATH="$BIN:$PATH" PULUMI_HOME="$WORK/home" PULUMI_SKIP_UPDATE_CHECK=true PULUMI_CONFIG_PASSPHRASE="" \
  pulumi package gen-sdk "$SCHEMA" --language java --version "$VERSION" -o "$WORK/out" >/dev/null

RESOURCES="src/main/resources/io/github/pulumicloudplatform/cloudplatform"
rm -rf "$OUT/src"
mkdir -p "$OUT/$RESOURCES"
cp -R "$WORK/out/java/src/main" "$OUT/src/"
cp "$WORK/out/java/README.md" "$OUT/README.md"
sed "s|@VERSION@|$VERSION|" "$HERE/pom.xml" > "$OUT/pom.xml"
cp "$HERE/version.txt" "$OUT/$RESOURCES/version.txt"
if [[ -n "$URL" ]]; then
  sed "s|^  \"version\": \"\(.*\)\"$|  \"version\": \"\1\",\n  \"server\": \"$URL\"|" "$HERE/plugin.json" > "$OUT/$RESOURCES/plugin.json"
else
  cp "$HERE/plugin.json" "$OUT/$RESOURCES/plugin.json"
fi
