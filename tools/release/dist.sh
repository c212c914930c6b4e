#!/usr/bin/env bash
# `make dist`: builds everything a release publishes, from the one version in package.json, into
# dist-release/ (replaced on every run):
#   pulumi-cloudplatform-<v>.tgz                          the npm package (`npm pack`)
#   pulumi-resource-cloudplatform-v<v>-<os>-<arch>.tar.gz the plugin, linux/darwin/windows x amd64/arm64
#   pulumi_cloudplatform-<pep440 v>.tar.gz and -py3-none-any.whl   the Python SDK
#   cloudplatform-<v>.jar and cloudplatform-<v>.pom          the Java SDK (Maven
#                                                         io.github.pulumi-cloudplatform:cloudplatform)
#   SHA256SUMS                                            of all of the above
# and checks that the Go SDK's module is ready to be published by its tag (printed at the end).
# Needs `make build` first (the Makefile's dist target does it), npm's cache or registry for the
# plugin's dependencies, python3, Maven and Java 17+ (tools/maven.sh), and Go for the Go SDK's build check.
# PLUGIN_DOWNLOAD_URL=<url> (optional): the URL the artifacts name for the engine to download the
# plugin from (the schema's pluginDownloadURL; RELEASING.md). When the repository's copies already
# hold it (`make version PLUGIN_DOWNLOAD_URL=<url>`, the release commit), they are packed as they
# are; otherwise the artifacts are built from a staged copy of the repository with the URL stamped
# in (the repository is not touched; the Go SDK, published by its git tag, then does not carry it).
# Unset, the artifacts carry whatever URL the repository holds (none in the committed one).
# Usage: [PLUGIN_DOWNLOAD_URL=<url>] tools/release/dist.sh [--out <dir>] [--skip-go-build]
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$REPO/dist-release"
GO_BUILD=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --skip-go-build) GO_BUILD=0; shift ;;
    *) echo "usage: tools/release/dist.sh [--out <dir>] [--skip-go-build]" >&2; exit 2 ;;
  esac
done
say() { echo "[dist] $*" >&2; }

if [[ -n "${PLUGIN_DOWNLOAD_URL:-}" && -z "${CLOUDPLATFORM_DIST_STAGED:-}" ]] && ! node "$REPO/tools/release/version.js" --check >/dev/null 2>&1; then
  # Only the URL may differ: a version copy that differs is an error here too.
  node -e 'if (require(process.argv[1]).check().length) process.exit(1)' "$REPO/tools/release/version.js" || { node "$REPO/tools/release/version.js" --check >&2 || true; exit 1; }
  [[ -f "$REPO/dist/provider/plugin/main.js" ]] || { say "error: build first (make build)"; exit 1; }
  node -e 'const a = require(process.argv[1]), b = require(process.argv[2]); if (JSON.stringify(a) !== JSON.stringify(b)) process.exit(1)' "$REPO/dist/provider/plugin/schema.json" "$REPO/provider/plugin/schema.json" || { say "error: dist/ is older than provider/plugin/schema.json: make build"; exit 1; }
  STAGE="$(mktemp -d "${TMPDIR:-/tmp}/cloudplatform-dist-stage-XXXXXX")"
  trap 'rm -rf "$STAGE"' EXIT
  say "staging a copy with plugin download URL $PLUGIN_DOWNLOAD_URL (the repository is not touched)"
  tar -C "$REPO" --exclude=./node_modules --exclude=./.git --exclude=./dist-release --exclude=./dist-plugin --exclude=./dist-bench --exclude=./dist-scripts -cf - . | tar -C "$STAGE" -xf -
  node -e 'require(process.argv[1]).stampDownloadURL(process.argv[2], process.argv[3])' "$STAGE/tools/release/version.js" "$PLUGIN_DOWNLOAD_URL" "$STAGE" >/dev/null
  # The plugin serves the schema compiled into dist/ (a copy of the JSON file): the same URL there.
  cp "$STAGE/provider/plugin/schema.json" "$STAGE/dist/provider/plugin/schema.json"
  say "note: the Go SDK is published by a git tag of the repository, which does not hold this URL; for a release run \`make version PLUGIN_DOWNLOAD_URL=$PLUGIN_DOWNLOAD_URL\` and commit first"
  staged_args=(--out "$OUT")
  [[ "$GO_BUILD" == 1 ]] || staged_args+=(--skip-go-build)
  CLOUDPLATFORM_DIST_STAGED=1 bash "$STAGE/tools/release/dist.sh" "${staged_args[@]}"
  exit $?
fi

node "$REPO/tools/release/version.js" --check >&2
read -r GO_MODULE GO_TAG < <(node "$REPO/tools/release/goModule.js")
[[ -n "${GO_TAG:-}" ]] || exit 1
[[ -f "$REPO/dist/provider/plugin/main.js" ]] || { say "error: build first (make build)"; exit 1; }
VERSION="$(node -p 'require(process.argv[1]).version' "$REPO/package.json")"

rm -rf "$OUT"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

say "npm package"
TARBALL="$OUT/$(cd "$REPO" && npm pack --silent --pack-destination "$OUT" | tail -n 1)"
# The package is the compiled code, its declarations and docs: no tests, build stamps or .ts sources.
unwanted="$(tar -tzf "$TARBALL" | sed 's|^package/||' | grep -E '(^|/)tests?/|\.test\.|\.stamp$|\.ts$' | grep -v '\.d\.ts$' || true)"
[[ -z "$unwanted" ]] || { say "error: the npm package would ship:"; echo "$unwanted" >&2; exit 1; }

say "plugin archives"
node "$REPO/tools/release/pluginArchives.js" "$TARBALL" "$OUT" >/dev/null

say "Python sdist and wheel"
bash "$REPO/tools/release/python-dist.sh" "$OUT" >/dev/null

say "Java SDK jar"
# Built in a copy: sdk/java stays free of Maven's target/.
JAVA_WORK="$(mktemp -d "${TMPDIR:-/tmp}/cloudplatform-dist-java-XXXXXX")"
cp -R "$REPO/sdk/java/." "$JAVA_WORK"
bash "$REPO/tools/maven.sh" -f "$JAVA_WORK/pom.xml" package >&2
cp "$JAVA_WORK/target/cloudplatform-$VERSION.jar" "$OUT/"
cp "$JAVA_WORK/pom.xml" "$OUT/cloudplatform-$VERSION.pom"
rm -rf "$JAVA_WORK"

GO_DIR="$REPO/${GO_TAG%v"$VERSION"}"
if [[ "$GO_BUILD" == 1 ]]; then
  command -v go >/dev/null 2>&1 || { say "error: Go is needed to check that the Go SDK builds (or pass --skip-go-build)"; exit 1; }
  say "Go SDK build check (${GO_DIR#"$REPO/"})"
  (cd "$GO_DIR" && GOFLAGS=-mod=readonly GOTOOLCHAIN=local go build ./...)
fi

(cd "$OUT" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | sort | xargs sha256sum > SHA256SUMS)

cat >&2 <<SUMMARY
[dist] $OUT:
$(cd "$OUT" && ls -1 | sed 's/^/  /')
[dist] Go module $GO_MODULE: publish with
  git tag $GO_TAG && git push origin $GO_TAG
SUMMARY
echo "$OUT"
