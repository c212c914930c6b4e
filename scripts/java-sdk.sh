#!/usr/bin/env bash
# The checkout's Java SDK (sdk/java) as the Java tests use it: built with Maven and installed into
# the Maven cache of tools/maven.sh as io.github.pulumi-cloudplatform:cloudplatform at the version
# <package version>-local.<hash of sdk/java>, which it prints. Keyed by content: a second run (or
# another checkout with the same SDK) installs nothing, and checkouts whose SDKs differ never
# overwrite each other's jar. The jar itself is the release's (its plugin.json and version.txt
# name the package version, the plugin a program asks for). The first run downloads
# com.pulumi:pulumi and the Maven plugins (about a minute).
# `--warm-examples` (`make test-assets`) also builds the Java examples and runs their unit tests
# once per SDK and example poms, in temp copies, so the plugins and test dependencies they
# download are in the cache before the integration suites start.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SDK="$REPO/sdk/java"
VERSION="$(node -p 'require(process.argv[1]).version' "$REPO/package.json")"
HASH="$(cd "$SDK" && find . -path ./target -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)"
LOCAL="$VERSION-local.$HASH"
M2="$(bash "$REPO/tools/maven.sh" --print-repo)"
if [[ ! -f "$M2/io/github/pulumi-cloudplatform/cloudplatform/$LOCAL/cloudplatform-$LOCAL.jar" ]]; then
  WORK="$(mktemp -d -t cloudplatform-java-sdk.XXXXXX)"
  trap 'rm -rf "$WORK"' EXIT
  cp -R "$SDK/." "$WORK"
  rm -rf "$WORK/target"
  bash "$REPO/tools/maven.sh" -f "$WORK/pom.xml" package >&2
  sed "s|^  <version>$VERSION</version>$|  <version>$LOCAL</version>|" "$WORK/pom.xml" > "$WORK/local.pom"
  bash "$REPO/tools/maven.sh" org.apache.maven.plugins:maven-install-plugin:3.1.2:install-file \
    -Dfile="$WORK/target/cloudplatform-$VERSION.jar" -DpomFile="$WORK/local.pom" >&2
fi
if [[ "${1:-}" == "--warm-examples" ]]; then
  STAMP="$M2/.warm-$(cat "$REPO"/examples/java-quickstart/pom.xml "$REPO"/examples/testing-java/pom.xml | sha256sum | cut -c1-12)-$LOCAL"
  if [[ ! -f "$STAMP" ]]; then
    for example in java-quickstart testing-java; do
      COPY="$(mktemp -d -t cloudplatform-java-example.XXXXXX)"
      cp -R "$REPO/examples/$example/." "$COPY"
      bash "$REPO/tools/maven.sh" -f "$COPY/pom.xml" -Dcloudplatform.version="$LOCAL" test dependency:resolve-plugins >&2
      rm -rf "$COPY"
    done
    touch "$STAMP"
  fi
fi
echo "$LOCAL"
