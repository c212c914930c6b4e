#!/usr/bin/env bash
# `make test` as a new machine runs it, on this one: a clean clone of HEAD into a temporary
# directory, every cache the set-up uses empty (npm, Go modules, Go build, pip, the CLI and Node
# cache under XDG_CACHE_HOME), then `make test` there. The machine's own caches are not touched.
# Prints the elapsed time and exits with make's status; removes the clone and caches unless
# KEEP=1 (they take about 5 GB). Extra arguments go to make (e.g. `test-unit`).
#
# Why: the machine that wrote the code has every cache warm, so its runs (and CI's, which runs
# there) never see what a first-time contributor's first `make test` does: minutes of Go
# compilation beside the unit tests.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cloudplatform-new-machine.XXXXXX")"
CLONE="$WORK/clone"
CACHES="$WORK/caches"

cleanup() {
  if [[ "${KEEP:-}" == "1" ]]; then
    echo "[new-machine] kept $WORK"
    return
  fi
  chmod -R u+w "$WORK" 2>/dev/null || true # Go's module cache is read-only
  rm -rf "$WORK"
}
trap cleanup EXIT

git clone --quiet "$REPO" "$CLONE"
echo "[new-machine] clone of $(git -C "$CLONE" rev-parse --short HEAD) in $CLONE, empty caches in $CACHES"
mkdir -p "$CACHES"
start=$(date +%s)
status=0
(
  cd "$CLONE"
  # CLOUDPLATFORM_PULUMI_ROOT and CLOUDPLATFORM_CLI_CACHE would point at this machine's warm CLI.
  env -u CLOUDPLATFORM_PULUMI_ROOT -u CLOUDPLATFORM_CLI_CACHE \
    XDG_CACHE_HOME="$CACHES/xdg" GOMODCACHE="$CACHES/gomod" GOCACHE="$CACHES/gobuild" \
    npm_config_cache="$CACHES/npm" PIP_CACHE_DIR="$CACHES/pip" \
    make "${@:-test}"
) || status=$?
elapsed=$(($(date +%s) - start))
printf '[new-machine] make %s: exit %d after %d min %02d s\n' "${*:-test}" "$status" $((elapsed / 60)) $((elapsed % 60))
exit "$status"
