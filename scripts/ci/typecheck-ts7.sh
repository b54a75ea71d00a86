#!/usr/bin/env bash
# The repository type-checked by TypeScript 7 (the native compiler), besides the 6 that `npm test`
# compiles with: `tsc --noEmit` on tsconfig.json (src, test, sample-app, bench). 7 is installed from
# scripts/ci/ts7's own lockfile into that folder, so the repository's `typescript` stays 6 for the
# tools that need the compiler's JavaScript API (api-extractor, TypeDoc, typescript-eslint).
#
#   bash scripts/ci/typecheck-ts7.sh        (or: npm run typecheck:ts7)
#
# Exit status: 0 when tsc 7 reports no error.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TS7="$ROOT/scripts/ci/ts7"
TSC="$TS7/node_modules/typescript/bin/tsc"
if ! [[ -x "$TSC" ]] || ! "$TSC" --version 2>/dev/null | grep -q '^Version 7\.'; then
  echo '[ts7] npm ci in scripts/ci/ts7' >&2
  npm ci --prefix "$TS7" --no-audit --no-fund --loglevel=error >&2
fi
cd "$ROOT"
echo "[ts7] $("$TSC" --version): tsc -p tsconfig.json --noEmit" >&2
# --incremental false: tsconfig.json's build info is tsc 6's (npm test's compile), not to be overwritten.
"$TSC" -p tsconfig.json --noEmit --incremental false
echo '[ts7] no error' >&2
