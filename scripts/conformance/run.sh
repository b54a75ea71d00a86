#!/usr/bin/env bash
# Runs the official MCP conformance suite (npm @modelcontextprotocol/conformance) against
# the conformance server in test/conformance/server.ts, served on 127.0.0.1.
#
#   npm run compile && bash scripts/conformance/run.sh
#
# Six runs, each with its own -o directory under .conformance/results/:
#   1. conformance@0.1.16          server --suite active          (every check must pass)
#   2. conformance@0.2.0-alpha.12  server --requirements 2025-11-25  (must exit 0)
#   3. conformance@0.2.0-alpha.12  server --requirements 2026-07-28  (must exit 0)
#   4-6. the same three against the gateway (`mcpfusion serve --url <the conformance server>`,
#        packages/cli/dist/main.js) in front of the conformance server: labels gateway-v0.1.16-active,
#        gateway-v0.2.0-alpha.12-req-2025-11-25, gateway-v0.2.0-alpha.12-req-2026-07-28.
#   7-9. the sample app served through the gateway (`mcpfusion serve --stdio 'node
#        build/sample-app/main.js --stdio' --namespace desk`, on a SQLite file of its own): every
#        scenario of each suite that asks nothing of the conformance server's own fixtures (its
#        test_* tools, prompts and resources, which the sample app does not have; those are
#        exercised by runs 4-6): labels sample-gateway-v0.1.16, sample-gateway-2025-11-25,
#        sample-gateway-2026-07-28 (the scenario lists are SAMPLE_SCENARIOS_* below).
#
# The suite needs Node >= 22; the npm package node@22 is installed into a tool folder of
# its own so the project itself keeps running on the system Node (20). Everything the
# script installs lives in .conformance/tools/<name> (gitignored) and is installed once.
#
# Environment:
#   CONFORMANCE_PORT     port for the server (default 0: a free port)
#   CONFORMANCE_VERBOSE  1 = stream the suites' full output (default: kept in console.log files)
#   CONFORMANCE_RUNS     space-separated subset of: v0.1.16 2025-11-25 2026-07-28
#                        gateway-v0.1.16 gateway-2025-11-25 gateway-2026-07-28
#                        sample-gateway-v0.1.16 sample-gateway-2025-11-25 sample-gateway-2026-07-28
#                        (default: all)
#   GATEWAY_UPSTREAM_ERA the era the gateway speaks to the conformance server: default 2025 for the
#                        gateway-v0.1.16 and gateway-2025-11-25 runs (a stateful upstream: the
#                        session pool is exercised), auto for gateway-2026-07-28 (2026-07-28
#                        end to end: the upstream's input_required rounds pass through whole)
#
# Exit status: 0 only if every run exited 0.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOLS="$ROOT/.conformance/tools"
RESULTS="$ROOT/.conformance/results"
SERVER_JS="$ROOT/build/test/conformance/server.js"
REPORT_JS="$ROOT/scripts/conformance/report.js"

NODE_PKG_SPEC="node@22"
SUITE_STABLE="0.1.16"
SUITE_ALPHA="0.2.0-alpha.12"
SUITE_URL=""
RUNS="${CONFORMANCE_RUNS:-v0.1.16 2025-11-25 2026-07-28 gateway-v0.1.16 gateway-2025-11-25 gateway-2026-07-28 sample-gateway-v0.1.16 sample-gateway-2025-11-25 sample-gateway-2026-07-28}"
SAMPLE_JS="$ROOT/build/sample-app/main.js"
# The scenarios that need no fixture of the conformance server (no test_* member): protocol, lifecycle,
# listing, transport and header rules, which the sample app behind the gateway must pass as any server does.
SAMPLE_SCENARIOS_STABLE="server-initialize logging-set-level ping tools-list resources-list prompts-list server-sse-multiple-streams dns-rebinding-protection"
SAMPLE_SCENARIOS_2025="server-initialize server-session-lifecycle logging-set-level ping tools-list resources-list prompts-list server-sse-multiple-streams dns-rebinding-protection"
SAMPLE_SCENARIOS_2026="tools-list resources-list prompts-list server-sse-multiple-streams dns-rebinding-protection caching http-header-validation sep-2164-resource-not-found input-required-result-unsupported-methods"
GATEWAY_JS="$ROOT/packages/cli/dist/main.js"

log() { printf '[conformance] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 2; }

# ---------------------------------------------------------------- tools (idempotent)

NODE22_DIR="$TOOLS/node22"
NODE22="$NODE22_DIR/node_modules/node/bin/node"

node22_ok() { [[ -x "$NODE22" ]] && [[ "$("$NODE22" --version 2>/dev/null)" == v22.* ]]; }

ensure_node22() {
  if node22_ok; then return; fi
  log "installing $NODE_PKG_SPEC into ${NODE22_DIR#"$ROOT"/}"
  mkdir -p "$NODE22_DIR"
  npm install --prefix "$NODE22_DIR" --save-exact --no-audit --no-fund --loglevel=error "$NODE_PKG_SPEC" >&2
  node22_ok || die "the npm package $NODE_PKG_SPEC did not provide a Node 22 binary at $NODE22 (its preinstall script downloads it; was it blocked?)"
}

# conformance_dir <version>: the tool folder of one suite version.
conformance_dir() { printf '%s/conformance-%s' "$TOOLS" "$1"; }
conformance_cli() { printf '%s/node_modules/@modelcontextprotocol/conformance/dist/index.js' "$(conformance_dir "$1")"; }

ensure_conformance() {
  local version="$1" dir pkg installed=""
  dir="$(conformance_dir "$version")"
  pkg="$dir/node_modules/@modelcontextprotocol/conformance/package.json"
  if [[ -f "$pkg" ]]; then
    installed="$("$NODE22" -p "require(process.argv[1]).version" "$pkg" 2>/dev/null || true)"
  fi
  if [[ "$installed" == "$version" && -f "$(conformance_cli "$version")" ]]; then return; fi
  log "installing @modelcontextprotocol/conformance@$version into ${dir#"$ROOT"/}"
  mkdir -p "$dir"
  # npm runs under Node 22 here, so the package's engines (node >= 22) are satisfied.
  PATH="$(dirname "$NODE22"):$PATH" npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$version" >&2
  [[ -f "$(conformance_cli "$version")" ]] || die "@modelcontextprotocol/conformance@$version did not install its CLI"
}

ensure_node22
ensure_conformance "$SUITE_STABLE"
ensure_conformance "$SUITE_ALPHA"

# ---------------------------------------------------------------- server

[[ -f "$SERVER_JS" ]] || die "${SERVER_JS#"$ROOT"/} is missing: run \`npm run compile\` first (it compiles test/conformance/server.ts)"

mkdir -p "$RESULTS"
rm -f "$RESULTS/summary.txt"
SERVER_LOG="$RESULTS/server.log"
SERVER_PID=""
SERVER_URL=""

GATEWAY_PID=""
GATEWAY_URL=""
GATEWAY_LOG="$RESULTS/gateway.log"

stop_gateway() {
  if [[ -n "$GATEWAY_PID" ]] && kill -0 "$GATEWAY_PID" 2>/dev/null; then
    kill -TERM "$GATEWAY_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$GATEWAY_PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$GATEWAY_PID" 2>/dev/null && kill -KILL "$GATEWAY_PID" 2>/dev/null || true
    wait "$GATEWAY_PID" 2>/dev/null || true
  fi
  GATEWAY_PID=""
  GATEWAY_URL=""
}

stop_server() {
  stop_gateway
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# url_printed_by <pid> <log> <first line> <seconds> <sed script> <what>: the URL a process prints on
# its log once it listens (read from <first line> on); dies if it exits or prints none in time.
url_printed_by() {
  local pid="$1" logfile="$2" from="$3" deadline=$((SECONDS + $4)) script="$5" what="$6" url=""
  while [[ -z "$url" ]]; do
    kill -0 "$pid" 2>/dev/null || { cat "$logfile" >&2; die "$what exited during startup"; }
    ((SECONDS < deadline)) || { cat "$logfile" >&2; die "$what printed no listening URL within $4 s"; }
    url="$(tail -n "+$from" "$logfile" | sed -n "$script" | head -n 1)"
    [[ -n "$url" ]] || sleep 0.1
  done
  printf '%s' "$url"
}

start_server() {
  # Only lines written by this start count (after a restart the log holds the previous server's lines).
  local from=$(($(wc -l <"$SERVER_LOG") + 1))
  # The server never writes to stdout; anything that shows up there is a bug worth seeing.
  (cd "$ROOT" && PORT="${CONFORMANCE_PORT:-0}" exec node "$SERVER_JS") >>"$RESULTS/server.stdout" 2>>"$SERVER_LOG" &
  SERVER_PID=$!
  SERVER_URL="$(url_printed_by "$SERVER_PID" "$SERVER_LOG" "$from" 30 's/^listening \(http[^ ]*\)$/\1/p' "the conformance server")"
  # Wait until it answers HTTP at all (any status will do: a bare GET has no session).
  "$NODE22" -e '
    const url = process.argv[1];
    const deadline = Date.now() + 30000;
    (async () => {
      for (;;) {
        try { const r = await fetch(url, { method: "GET", headers: { accept: "text/event-stream" }, signal: AbortSignal.timeout(2000) }); await r.body?.cancel(); return; }
        catch (e) { if (Date.now() > deadline) { console.error("server not answering: " + e.message); process.exit(1); } await new Promise((r) => setTimeout(r, 100)); }
      }
    })();' "$SERVER_URL" || die "the conformance server at $SERVER_URL does not answer"
  log "server up at $SERVER_URL (pid $SERVER_PID, log ${SERVER_LOG#"$ROOT"/})"
}

# start_sample_gateway: `mcpfusion serve --stdio <the sample app> --namespace desk` on a free port,
# the sample app on a SQLite file of its own (made afresh for each run).
start_sample_gateway() {
  [[ -f "$SAMPLE_JS" ]] || die "${SAMPLE_JS#"$ROOT"/} is missing: run \`npm run compile\` first"
  rm -f "$RESULTS/sample.db" "$RESULTS/sample.db-wal" "$RESULTS/sample.db-shm"
  launch_gateway "the sample app" --stdio "node $SAMPLE_JS --stdio" --namespace desk
}

# start_gateway: `mcpfusion serve --url <the conformance server>` on a free port, in front of it.
# The suite is one caller that opens a session per scenario and closes none, dozens in a run: the
# front allows it more sessions per caller (--max-sessions-per-caller), as the server itself does;
# the gateway keeps its own sessions upstream below the server's per-caller limit by itself.
start_gateway() {
  launch_gateway "$SERVER_URL (upstream era $1)" --url "$SERVER_URL" --upstream-era "$1"
}

# launch_gateway <what it fronts> <serve arguments...>: starts `mcpfusion serve` on a free port and waits for its URL.
launch_gateway() {
  local what="$1"
  shift
  [[ -f "$GATEWAY_JS" ]] || die "${GATEWAY_JS#"$ROOT"/} is missing: run \`npm run compile\` first"
  local from=$(($(wc -l <"$GATEWAY_LOG") + 1))
  (cd "$ROOT" && BILLING_DB="$RESULTS/sample.db" exec node "$GATEWAY_JS" serve "$@" --port 0 \
    --max-sessions-per-caller 1000) >>"$RESULTS/gateway.stdout" 2>>"$GATEWAY_LOG" &
  GATEWAY_PID=$!
  GATEWAY_URL="$(url_printed_by "$GATEWAY_PID" "$GATEWAY_LOG" "$from" 60 's/^mcpfusion gateway listening on \(http[^ ]*\) .*$/\1/p' "the gateway")"
  log "gateway up at $GATEWAY_URL in front of $what (pid $GATEWAY_PID, log ${GATEWAY_LOG#"$ROOT"/})"
}

: >"$SERVER_LOG"
: >"$RESULTS/server.stdout"
: >"$GATEWAY_LOG"
: >"$RESULTS/gateway.stdout"
start_server

# ---------------------------------------------------------------- suite runs

REPORT_ARGS=()
OVERALL=0

# run_suite <label> <version> <requirements-revision or ""> <cli args...>: against SUITE_URL
# (the server's URL, or the gateway's for the gateway runs).
run_suite() {
  local label="$1" version="$2" revision="$3"
  shift 3
  local out="$RESULTS/$label" code=0
  rm -rf "$out"
  mkdir -p "$out"
  log "run $label: conformance@$version server --url $SUITE_URL $* -o ${out#"$ROOT"/}"
  if [[ "${CONFORMANCE_VERBOSE:-0}" == "1" ]]; then
    # tee would hide the suite's status: record it inside the pipeline.
    { "$NODE22" "$(conformance_cli "$version")" server --url "$SUITE_URL" "$@" -o "$out" 2>&1 && echo 0 >"$out/.exit" || echo $? >"$out/.exit"; } |
      tee "$out/console.log"
    code="$(cat "$out/.exit")"
  else
    "$NODE22" "$(conformance_cli "$version")" server --url "$SUITE_URL" "$@" -o "$out" >"$out/console.log" 2>&1 || code=$?
  fi
  log "run $label: exit $code"
  ((code == 0)) || OVERALL=1
  local req=()
  if [[ -n "$revision" ]]; then
    req=(--requirements "$(dirname "$(dirname "$(conformance_cli "$version")")")/requirements/$revision.yaml")
  fi
  REPORT_ARGS+=(--run "$label" --command "conformance@$version server $*" --dir "$out" --exit "$code" "${req[@]}")
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    log "the conformance server died during run $label; restarting it for the next run"
    stop_gateway
    SERVER_PID=""
    SERVER_URL=""
    start_server
  fi
}

# run_gateway_suite <upstream era> <label> <version> <revision> <cli args...>: the same, through a
# fresh gateway in front of the server (a fresh one per run, so no run inherits another's sessions).
run_gateway_suite() {
  start_gateway "$1"
  shift
  SUITE_URL="$GATEWAY_URL"
  run_suite "$@"
  if ! kill -0 "$GATEWAY_PID" 2>/dev/null; then
    log "the gateway died during run $1 (see ${GATEWAY_LOG#"$ROOT"/})"
    OVERALL=1
  fi
  stop_gateway
  SUITE_URL="$SERVER_URL"
}

# run_sample_suite <label> <version> <spec version or ""> <scenarios>: each scenario on its own
# (`--scenario`), against a fresh gateway in front of the sample app; the run fails if any one fails.
run_sample_suite() {
  local label="$1" version="$2" spec="$3" scenarios="$4" out="$RESULTS/$1" code=0 one
  start_sample_gateway
  rm -rf "$out"
  mkdir -p "$out"
  log "run $label: conformance@$version server --url $GATEWAY_URL --scenario <each of: $scenarios> -o ${out#"$ROOT"/}"
  : >"$out/console.log"
  for scenario in $scenarios; do
    one=0
    "$NODE22" "$(conformance_cli "$version")" server --url "$GATEWAY_URL" --scenario "$scenario" ${spec:+--spec-version "$spec"} \
      -o "$out" >>"$out/console.log" 2>&1 || one=$?
    ((one == 0)) || { code=1; log "run $label: $scenario exited $one"; }
  done
  log "run $label: exit $code"
  ((code == 0)) || OVERALL=1
  if ! kill -0 "$GATEWAY_PID" 2>/dev/null; then
    log "the gateway died during run $label (see ${GATEWAY_LOG#"$ROOT"/})"
    OVERALL=1
  fi
  REPORT_ARGS+=(--run "$label" --command "conformance@$version server --scenario <each of: $scenarios>" --dir "$out" --exit "$code")
  stop_gateway
}

for run in $RUNS; do
  SUITE_URL="$SERVER_URL"
  case "$run" in
    v0.1.16) run_suite "v0.1.16-active" "$SUITE_STABLE" "" --suite active ;;
    2025-11-25) run_suite "v0.2.0-alpha.12-req-2025-11-25" "$SUITE_ALPHA" 2025-11-25 --requirements 2025-11-25 ;;
    2026-07-28) run_suite "v0.2.0-alpha.12-req-2026-07-28" "$SUITE_ALPHA" 2026-07-28 --requirements 2026-07-28 ;;
    gateway-v0.1.16) run_gateway_suite "${GATEWAY_UPSTREAM_ERA:-2025}" "gateway-v0.1.16-active" "$SUITE_STABLE" "" --suite active ;;
    gateway-2025-11-25) run_gateway_suite "${GATEWAY_UPSTREAM_ERA:-2025}" "gateway-v0.2.0-alpha.12-req-2025-11-25" "$SUITE_ALPHA" 2025-11-25 --requirements 2025-11-25 ;;
    gateway-2026-07-28) run_gateway_suite "${GATEWAY_UPSTREAM_ERA:-auto}" "gateway-v0.2.0-alpha.12-req-2026-07-28" "$SUITE_ALPHA" 2026-07-28 --requirements 2026-07-28 ;;
    sample-gateway-v0.1.16) run_sample_suite "sample-gateway-v0.1.16" "$SUITE_STABLE" "" "$SAMPLE_SCENARIOS_STABLE" ;;
    sample-gateway-2025-11-25) run_sample_suite "sample-gateway-2025-11-25" "$SUITE_ALPHA" 2025-11-25 "$SAMPLE_SCENARIOS_2025" ;;
    sample-gateway-2026-07-28) run_sample_suite "sample-gateway-2026-07-28" "$SUITE_ALPHA" 2026-07-28 "$SAMPLE_SCENARIOS_2026" ;;
    *) die "unknown run '$run' in CONFORMANCE_RUNS (use v0.1.16, 2025-11-25, 2026-07-28, gateway-v0.1.16, gateway-2025-11-25, gateway-2026-07-28, sample-gateway-v0.1.16, sample-gateway-2025-11-25, sample-gateway-2026-07-28)" ;;
  esac
done

stop_server

if [[ -s "$RESULTS/server.stdout" ]]; then
  log "warning: the server wrote to stdout (see ${RESULTS#"$ROOT"/}/server.stdout)"
  OVERALL=1
fi
if [[ -s "$RESULTS/gateway.stdout" ]]; then
  log "warning: the gateway wrote to stdout (see ${RESULTS#"$ROOT"/}/gateway.stdout)"
  OVERALL=1
fi

# ---------------------------------------------------------------- report

# The report also goes to summary.txt, which .ci/run reads to count the runs.
set +e
"$NODE22" "$REPORT_JS" "${REPORT_ARGS[@]}" | tee "$RESULTS/summary.txt"
[[ "${PIPESTATUS[0]}" -eq 0 ]] || OVERALL=1
exit "$OVERALL"
