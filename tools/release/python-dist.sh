#!/usr/bin/env bash
# Builds the Python SDK's sdist and wheel (PyPI's `build`, pinned) from sdk/python into the
# directory given (default dist-release/) and prints their paths.
# Why a copy: a build in sdk/python would leave build/ and egg-info there, and the generated
# pyproject.toml names a README.md beside it that the generator writes inside the package.
# The build venv lives outside the repo (~/.cache/pulumi-cloudplatform/python-build-<pins>),
# made once and reused by every later run and clone; builds run without isolation in it, so
# only its first set-up needs PyPI.
set -euo pipefail

BUILD_VERSION=1.6.1
SETUPTOOLS_VERSION=84.2.1
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$(mkdir -p "${1:-$REPO/dist-release}" && cd "${1:-$REPO/dist-release}" && pwd)"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
VENV="$CACHE_BASE/python-build-$BUILD_VERSION-setuptools-$SETUPTOOLS_VERSION"

if [[ ! -x "$VENV/bin/python" || ! -f "$VENV/.complete" ]]; then
  command -v python3 >/dev/null 2>&1 || { echo "[python-dist] error: python3 is needed" >&2; exit 1; }
  rm -rf "$VENV"
  echo "[python-dist] creating $VENV (build==$BUILD_VERSION, setuptools==$SETUPTOOLS_VERSION)..." >&2
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "build==$BUILD_VERSION" "setuptools==$SETUPTOOLS_VERSION" >&2
  touch "$VENV/.complete"
fi

copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
cp -r "$REPO/sdk/python" "$copy/python"
rm -rf "$copy/python/build" "$copy/python"/*.egg-info
find "$copy/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$REPO/sdk/python/pulumi_cloudplatform/README.md" "$copy/python/README.md"
before="$(ls "$OUT")"
# The log only when the build fails: setuptools warns about the generator's `project.license` table on every run.
if ! log="$("$VENV/bin/python" -m build --no-isolation --outdir "$OUT" "$copy/python" 2>&1)"; then
  echo "$log" >&2
  echo "[python-dist] error: the build failed" >&2
  exit 1
fi
comm -13 <(echo "$before" | sort) <(ls "$OUT" | sort) | sed "s|^|$OUT/|"
