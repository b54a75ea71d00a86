#!/usr/bin/env bash
# Installing the framework from git, checked the way npm does it for a git host: the host serves
# an archive of the commit (`git archive`, which honours .gitattributes export-ignore), npm extracts
# it and, since the package has a `prepare` script, prepares it with
#   npm install --force --include=dev ...   then   prepare (npm run build)
# and packs the result (npm's pacote: GitFetcher -> DirFetcher). This script does those steps on an
# archive of HEAD and checks that
#   1. the archive has no dev/ workspace (the tests', sample app's and tools' dependencies);
#   2. the preparation installed the framework's build only: no better-sqlite3 (the sample app's
#      native module), pg, jest, eslint, typedoc; and it reports how many packages and how long;
#   3. the package it packs installs into a fresh project and loads from CommonJS and ESM.
#
#   bash scripts/starter/git-install.sh      (HEAD: commit first; uncommitted changes are not in it)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mcpfusion-git-install.XXXXXX")"
NPM_FLAGS=(--no-audit --no-fund --prefer-offline --loglevel=error)
log() { printf '[git-install] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }
trap 'rm -rf "$WORK"' EXIT

commit="$(git -C "$ROOT" rev-parse --short HEAD)"
mkdir -p "$WORK/archive" "$WORK/app"
git -C "$ROOT" archive --format=tar HEAD | tar -x -C "$WORK/archive"
[[ -f "$WORK/archive/package.json" ]] || die "the archive of $commit has no package.json"
[[ ! -e "$WORK/archive/dev" ]] || die "the archive of $commit holds dev/ (.gitattributes export-ignore)"
log "archive of $commit: $(find "$WORK/archive" -type f | wc -l) files, no dev/"

started=$SECONDS
(cd "$WORK/archive" && npm install --force --include=dev --no-save --no-progress "${NPM_FLAGS[@]}" >"$WORK/prepare.log" 2>&1) || {
  cat "$WORK/prepare.log" >&2
  die "npm install in the archive (npm's git preparation)"
}
installed="$(cd "$WORK/archive" && find node_modules -mindepth 1 -maxdepth 2 -name package.json -o -mindepth 2 -maxdepth 3 -path 'node_modules/@*/*/package.json' | wc -l)"
for heavy in better-sqlite3 pg jest ts-jest eslint typedoc @microsoft/api-extractor @opentelemetry/sdk-node fast-check; do
  [[ ! -e "$WORK/archive/node_modules/$heavy" ]] || die "the preparation installed $heavy, which only the dev workspace needs"
done
(cd "$WORK/archive" && npm pack --pack-destination "$WORK" "${NPM_FLAGS[@]}" >"$WORK/pack.log" 2>&1) || {
  cat "$WORK/pack.log" >&2
  die "npm pack (prepare: the build) in the archive"
}
log "preparation: $installed packages installed (no sample app, test or docs tool), built and packed in $((SECONDS - started)) s"

tarball=("$WORK"/*.tgz)
cd "$WORK/app"
npm init -y >/dev/null
npm install "${NPM_FLAGS[@]}" "${tarball[0]}" tsyringe reflect-metadata class-validator class-transformer >"$WORK/app.log" 2>&1 || {
  cat "$WORK/app.log" >&2
  die "npm install of the packed package into a fresh project"
}
node -e "require('reflect-metadata'); const core = require('@mcpfusion/core'); if (typeof core.FusionApp?.create !== 'function') process.exit(1)" ||
  die "require('@mcpfusion/core') in the fresh project"
node --input-type=module -e "import 'reflect-metadata'; const core = await import('@mcpfusion/core'); if (typeof core.FusionApp?.create !== 'function') process.exit(1)" ||
  die "import('@mcpfusion/core') in the fresh project"
log "passed: the archive of $commit prepared, packed, installed and loaded (CommonJS and ESM)"
