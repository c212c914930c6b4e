#!/usr/bin/env bash
# Provides the platform's official Python SDK (PyPI `gcore`, pinned) in a virtualenv outside the
# repo, for the test that parses the simulator's answers with the SDK's own models
# (tests/unit/simulator/officialSdk.test.ts). Needs python3 with venv and the PyPI index; about
# 20 s the first time, reused by every later run and clone (like the Pulumi CLI cache).
#   --print-python   print the virtualenv's python and exit (nothing is installed)
set -euo pipefail

VERSION=0.59.0
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
VENV="$CACHE_BASE/gcore-python-$VERSION"
READY="$VENV/.installed"

if [[ "${1:-}" == "--print-python" ]]; then echo "$VENV/bin/python"; exit 0; fi
if [[ -f "$READY" && -x "$VENV/bin/python" ]]; then exit 0; fi

command -v python3 >/dev/null || { echo "[gcore-python-sdk] error: python3 is required" >&2; exit 1; }
echo "[gcore-python-sdk] installing gcore==$VERSION into $VENV" >&2
rm -rf "$VENV"
mkdir -p "$CACHE_BASE"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "gcore==$VERSION"
touch "$READY"
