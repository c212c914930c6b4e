#!/usr/bin/env bash
# Provides a Python virtual environment with PyPI's `pulumi` at the CLI's version and the
# generated SDK (sdk/python) installed, for the Python Automation API test; prints its path.
#   python-env.sh                 that environment
#   python-env.sh PACKAGE...      another one, with these PyPI packages too (e.g. pytest==8.4.2
#                                 for examples/testing-python)
# Kept outside the repo (~/.cache/pulumi-cloudplatform/python-<hash>) and reused until the SDK,
# the pin or the extra packages change. Needs python3 with venv and PyPI (or a pip mirror) reachable.
set -euo pipefail

PULUMI_VERSION=3.248.0
EXTRA=("$@")
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_BASE="${CLOUDPLATFORM_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-cloudplatform}"
# Build leftovers (`pip install` of sdk/python in place, as examples/python-quickstart does) are no part of the SDK.
HASH="$( (echo "$PULUMI_VERSION" "${EXTRA[@]}"; find "$REPO/sdk/python" -type f -not -path '*/__pycache__/*' -not -path "$REPO/sdk/python/build/*" -not -path '*.egg-info/*' | sort | xargs cat) | sha256sum | cut -c1-12)"
VENV="$CACHE_BASE/python-$HASH"

# Test suites that run side by side may ask for the same venv at once: one builds it, the others
# wait for the lock and then find it complete.
mkdir -p "$CACHE_BASE"
exec 9>"$VENV.lock"
flock 9
if [[ ! -x "$VENV/bin/python" || ! -f "$VENV/.complete" ]]; then
  command -v python3 >/dev/null 2>&1 || { echo "[python-env] error: python3 is needed" >&2; exit 1; }
  rm -rf "$VENV"
  echo "[python-env] creating $VENV (pulumi==$PULUMI_VERSION + sdk/python ${EXTRA[*]})..." >&2
  python3 -m venv "$VENV"
  # Installed from a copy: a build from sdk/python itself would leave build/ and egg-info there.
  copy="$(mktemp -d)"
  trap 'rm -rf "$copy"' EXIT
  cp -r "$REPO/sdk/python" "$copy/sdk"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "pulumi==$PULUMI_VERSION" "$copy/sdk" "${EXTRA[@]}" >&2
  touch "$VENV/.complete"
fi
echo "$VENV"
