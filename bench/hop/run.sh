#!/usr/bin/env bash
# What one gateway hop costs, A/B in one run: the bare SDK server (bare-sdk.mjs) on a random port, then one
# `mcpfusion serve --url <it> --namespace up` per checkout given (each its own process, e.g. the branch and a copy of
# the tree before a change), then ab.mjs drives the bare server directly and each gateway, interleaved.
#   usage: bench/hop/run.sh ERA ROUNDS PER CHECKOUT[::extra serve args] ...
#   e.g.   bench/hop/run.sh 2025 8 200 /tmp/before . ".::--upstream-era 2026"      (needs `npm run compile` in each)
# RAW=1 adds raw-proxy.mjs (a proxy that parses nothing: the floor of any hop) as a target after the direct one;
# PIPE=1 adds tcp-pipe.mjs (a TCP relay, below what any HTTP proxy can be: it cannot even route).
# GW_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" passes Node options to each gateway (a profile of the hop).
# Ratios only: the machine is shared. Ports 39000-39999, picked at random.
set -u
here=$(cd "$(dirname "$0")" && pwd)
era=${1:-2025}; rounds=${2:-8}; per=${3:-300}; shift 3
up=$((39000 + RANDOM % 1000))
PORT=$up node "$here/bare-sdk.mjs" & upid=$!
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$up") 2>/dev/null && break; sleep 0.1; done
specs=("direct=http://127.0.0.1:$up/mcp=$upid=")
pids=()
# A measuring stick beside the gateways (raw-proxy.mjs, tcp-pipe.mjs): started in front of the bare server, named by $1.
stick() {
  local port=$((39000 + RANDOM % 1000))
  PORT=$port UP="http://127.0.0.1:$up/mcp" node "$here/$2" &
  pids+=($!)
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  specs+=("$1=http://127.0.0.1:$port/mcp=${pids[-1]}=")
}
[ "${RAW:-0}" = 1 ] && stick raw raw-proxy.mjs
[ "${PIPE:-0}" = 1 ] && stick pipe tcp-pipe.mjs
for spec in "$@"; do
  dir=${spec%%::*}; extra=""; [ "$spec" != "$dir" ] && extra=${spec#*::}
  gw=$((39000 + RANDOM % 1000))
  # shellcheck disable=SC2086
  (cd "$dir" && exec node ${GW_NODE_ARGS:-} packages/cli/bin/mcpfusion.js serve --url "http://127.0.0.1:$up/mcp" --port $gw --namespace up $extra 2>/dev/null) &
  pids+=($!)
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$gw") 2>/dev/null && break; sleep 0.1; done
  specs+=("$(basename "$(cd "$dir" && pwd)")${extra:+ ($extra)}=http://127.0.0.1:$gw/mcp=${pids[-1]}=up.")
done
node "$here/ab.mjs" "$era" "$rounds" "$per" "$upid" "${specs[@]}"
kill "${pids[@]}" "$upid"; wait 2>/dev/null
