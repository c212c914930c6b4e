#!/usr/bin/env bash
# `make demo`: the quickstart example against the built-in simulator, step by step.
# Everything lives in a temporary directory (local backend, PULUMI_HOME); nothing leaves this machine.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
EXAMPLE="$REPO/examples/quickstart"
BIN="$(bash "$REPO/tools/pulumi-cli.sh" --print-root)/bin"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/cloudplatform-demo.XXXXXX")"
SIM_LOG="$WORK/simulator.log"
API_KEY="demo-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"

export PATH="$BIN:$PATH"
export PULUMI_HOME="$WORK/home"
export PULUMI_BACKEND_URL="file://$WORK/state"
export PULUMI_CONFIG_PASSPHRASE="demo-passphrase"
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
mkdir -p "$WORK/state" "$PULUMI_HOME"

bold=$'\e[1m'; dim=$'\e[2m'; reset=$'\e[0m'
[[ -t 1 ]] || { bold=""; dim=""; reset=""; }
step_no=0
step() { step_no=$((step_no + 1)); printf '\n%s==> Step %d: %s%s\n' "$bold" "$step_no" "$*" "$reset"; }
note() { printf '%s    %s%s\n' "$dim" "$*" "$reset"; }

SIM_PID=""
cleanup() {
  if [[ -n "$SIM_PID" ]]; then kill "$SIM_PID" 2>/dev/null || true; wait "$SIM_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

step "Start the cloud platform simulator (10x clock, so an upgrade task takes a few seconds)"
node "$REPO/dist/simulator/cli.js" --port 0 --api-key "$API_KEY" --time-scale 10 >"$SIM_LOG" 2>&1 &
SIM_PID=$!
for _ in $(seq 1 100); do
  SIM_URL="$(grep -o 'http://127.0.0.1:[0-9]*' "$SIM_LOG" | head -n1 || true)"
  [[ -n "$SIM_URL" ]] && break
  sleep 0.1
done
[[ -n "${SIM_URL:-}" ]] || { cat "$SIM_LOG"; echo "the simulator did not start" >&2; exit 1; }
note "simulator listening on $SIM_URL (API key kept in a secret config value, never printed)"

step "Prepare a copy of examples/quickstart (the repo stays untouched)"
# The copy shares the repo's node_modules, which links this package; a standalone copy of an
# example runs `npm install` instead.
cp -r "$EXAMPLE" "$WORK/quickstart"
rm -rf "$WORK/quickstart/node_modules"
ln -s "$REPO/node_modules" "$WORK/quickstart/node_modules"
cd "$WORK/quickstart"
pulumi stack init demo --non-interactive >/dev/null
pulumi config set cloudplatform:baseUrl "$SIM_URL"
pulumi config set --secret cloudplatform:apiKey "$API_KEY"
note "config: cloudplatform:baseUrl=$SIM_URL, cloudplatform:apiKey=[secret]"

step "pulumi up: look up the project and a Kubernetes region, upgrade demo-cluster one minor version, create notification thresholds"
pulumi up --yes --skip-preview --color never

step "Stack outputs"
pulumi stack output --color never

step "pulumi preview: nothing changed, so nothing to do"
pulumi preview --expect-no-changes --color never
note "preview reports no changes"

step "Someone upgrades demo-cluster to v1.32.1 outside Pulumi (through the simulator's admin API)"
curl -fsS -X PATCH -H 'content-type: application/json' -d '{"version":"v1.32.1"}' \
  "$SIM_URL/__admin/clusters/1/76/demo-cluster" >/dev/null
note "GET /cloud/v2/k8s/clusters/1/76/demo-cluster now reports v1.32.1"

step "pulumi preview --refresh: the drift shows up, and the provider refuses to downgrade the cluster"
set +e
pulumi preview --refresh --diff --color never
status=$?
set -e
if [[ $status -eq 0 ]]; then
  echo "expected the preview to stop at the downgrade check" >&2; exit 1
fi
note "preview stopped (exit $status): the live version drifted to v1.32.1 and a downgrade is never attempted."
note "To accept the drift, set the program's target to v1.32.1 (pulumi config set targetVersion v1.32.1)."

step "Accept the drift: set the target to v1.32.1; pulumi up --refresh records it with no API write"
pulumi config set targetVersion v1.32.1
pulumi up --yes --refresh --skip-preview --color never

step "pulumi destroy: remove the notification thresholds; the cluster upgrade is only forgotten"
pulumi destroy --yes --skip-preview --color never
pulumi stack rm demo --yes --force >/dev/null

step "Stop the simulator"
note "requests served: $(curl -fsS "$SIM_URL/__admin/requests" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).requests.length))')"
printf '\n%sDemo complete.%s\n' "$bold" "$reset"
