#!/usr/bin/env bash
# Maven as the project's scripts and tests run it: batch mode, quiet, and one local repository
# in the cache outside the repo (~/.cache/pulumi-cloudplatform/m2, or $CLOUDPLATFORM_CLI_CACHE/m2),
# so a machine downloads com.pulumi:pulumi and the Maven plugins once for every checkout and
# `make clean` keeps them. `--print-repo` prints that repository's path.
# Usage: tools/maven.sh <mvn arguments...>
set -euo pipefail
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
REPO_DIR="$CACHE_BASE/m2"
if [[ "${1:-}" == "--print-repo" ]]; then echo "$REPO_DIR"; exit 0; fi
command -v mvn >/dev/null 2>&1 || { echo "[maven] error: Maven (mvn) is not on PATH: install Maven 3.8+ and Java 17+ (e.g. apt-get install maven openjdk-17-jdk-headless)" >&2; exit 1; }
mkdir -p "$REPO_DIR"
exec mvn -B -q -Dstyle.color=never -Dmaven.repo.local="$REPO_DIR" "$@"
