#!/usr/bin/env bash
# The newcomer's first hour, automated: packs the framework, its CLI and create-mcpfusion the way
# npm publishes them, runs `npm create mcpfusion` from the tarballs (a new project outside the repo,
# so nothing resolves from the repo's node_modules: a copy of examples/starter, which @mcpfusion/cli
# ships), checks that @mcpfusion/core alone installs no CLI or UI package, installs the tarballs into
# the project, and there checks that
#   1. the framework's peers (tsyringe, reflect-metadata, class-validator, class-transformer)
#      resolve to one copy, the app's own, from the framework and from the app alike;
#   2. both entry points load from CommonJS and from ESM;
#   3. `npm run typecheck`, `npm run build` (tsc) and `npm test` (jest + @swc/jest, real SDK
#      clients) pass;
#   4. the built entry point (dist/main.js) starts and serves HTTP;
#   5. the CLI (@mcpfusion/cli, a dev dependency) runs from the app (`npx mcpfusion list <url>`);
#   6. `npm run dev` serves it, and an edit that adds a tool reaches a connected 2025-era client
#      without a reconnect (its session kept, list_changed received, the new tool called);
#   3 to 5 on TypeScript 6 (`npm i -D typescript@6`) and on TypeScript 7 (`npm i -D typescript@latest`),
#   with no install flag (the starter's range installs 7 by itself); with STARTER_TYPESCRIPT=installed,
#   on the TypeScript the range installs only (another Node line: the matrix is checked on the main one).
#
#   bash scripts/starter/check.sh            (or: npm run check:starter)
#
# Environment:
#   STARTER_KEEP=1   keep the temporary folder (its path is printed) instead of removing it
#
# Needs the npm registry for the starter's own dependencies (--prefer-offline: the npm cache
# is used where it can be). Exit status: 0 only if every step passed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STARTER_SRC="$ROOT/examples/starter"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mcpfusion-starter.XXXXXX")"
NPM_FLAGS=(--no-audit --no-fund --prefer-offline --loglevel=error)

log() { printf '[starter] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }
server_pid=""
cleanup() {
  local status=$?
  if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
  if [[ "${STARTER_KEEP:-0}" == 1 ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
  exit "$status"
}
trap cleanup EXIT
started=$SECONDS
step() { log "$* (+$((SECONDS - started))s)"; }

# A node_modules folder above the copy would let it resolve what it does not declare.
dir="$WORK"
while [[ "$dir" != / ]]; do
  dir="$(dirname "$dir")"
  [[ -d "$dir/node_modules" ]] && die "$dir/node_modules exists above the temporary folder; set TMPDIR elsewhere"
done

step "packing @mcpfusion/core, @mcpfusion/cli and create-mcpfusion (npm pack runs prepare/prepack, which build dist/)"
mkdir -p "$WORK/pack"
pack() { # <dir> <label>: the one tarball `npm pack` makes of the package in <dir>
  local out="$WORK/pack/$2"
  mkdir -p "$out"
  (cd "$1" && npm pack --pack-destination "$out" "${NPM_FLAGS[@]}" >"$WORK/pack-$2.log" 2>&1) || {
    cat "$WORK/pack-$2.log" >&2
    die "npm pack of $2"
  }
  local made=("$out"/*.tgz)
  [[ ${#made[@]} -eq 1 && -f "${made[0]}" ]] || die "npm pack of $2 produced no single tarball"
  tar -tzf "${made[0]}" >"$WORK/$2.files"
  log "$(basename "${made[0]}"): $(wc -l <"$WORK/$2.files") files, $(du -k "${made[0]}" | cut -f1) kB"
  printf '%s' "${made[0]}"
}
TARBALL="$(pack "$ROOT" core)"
CLI_TARBALL="$(pack "$ROOT/packages/cli" cli)"
CREATE_TARBALL="$(pack "$ROOT/packages/create-mcpfusion" create)"
for entry in package/package.json package/dist/index.js package/dist/index.d.ts package/dist/testing/index.js package/dist/testing/index.d.ts package/dist/wire/input-rounds.js; do
  grep -qx "$entry" "$WORK/core.files" || die "the core tarball lacks $entry"
done
# The framework ships no terminal client: a server installs @mcpfusion/core alone.
if grep -E '^package/(dist/cli/|examples/)' "$WORK/core.files" >&2; then die "the core tarball ships CLI code or the starter"; fi
tar -xzOf "$TARBALL" package/package.json | node -e "
  const p = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const ui = Object.keys(p.dependencies ?? {}).filter((d) => /inquirer|cli-progress|playwright/.test(d));
  if (p.bin || ui.length) { console.error('core declares', p.bin ? 'a bin' : '', ui.join(' ')); process.exit(1); }
" || die "the core package declares a bin or a UI dependency"
for entry in package/package.json package/bin/mcpfusion.js package/dist/main.js package/dist/init-command.js package/starter/package.json package/starter/src/tools.ts package/starter/tsconfig.json; do
  grep -qx "$entry" "$WORK/cli.files" || die "the cli tarball lacks $entry"
done
# Every template of examples/templates/ ships too (mcpfusion init --template <name>).
for template in "$ROOT"/examples/templates/*/; do
  [[ -d "$template" ]] || continue
  name="$(basename "$template")"
  grep -Eqx "package/templates/$name/(package|deno)\.json" "$WORK/cli.files" || die "the cli tarball lacks the $name template"
done
grep -qx package/index.js "$WORK/create.files" || die "the create-mcpfusion tarball lacks index.js"

step "a project that depends only on @mcpfusion/core installs no CLI or UI package"
mkdir -p "$WORK/core-only"
(
  cd "$WORK/core-only" &&
    printf '{ "name": "core-only", "version": "1.0.0", "private": true }\n' >package.json &&
    npm install "${NPM_FLAGS[@]}" "$TARBALL" tsyringe reflect-metadata class-validator class-transformer >"$WORK/core-only.log" 2>&1 &&
    npm ls --all --omit=dev --parseable >"$WORK/core-only.ls" 2>>"$WORK/core-only.log"
) || { cat "$WORK/core-only.log" >&2; die "npm install of @mcpfusion/core alone"; }
if grep -E '/node_modules/(@mcpfusion/cli|@inquirer/|cli-progress|playwright)' "$WORK/core-only.ls" >&2; then
  die "npm ls --omit=dev of a project with @mcpfusion/core alone lists CLI or UI packages"
fi
log "  @mcpfusion/core alone: $(($(wc -l <"$WORK/core-only.ls") - 1)) packages, $(du -sk "$WORK/core-only/node_modules" | cut -f1) kB in node_modules"

step "npm create mcpfusion (create-mcpfusion from its tarball, with the cli and core tarballs) writes $WORK/starter"
# As a newcomer runs it (npm create mcpfusion my-server is npm exec create-mcpfusion my-server): the bin from the
# tarball, in a folder of its own; the cli and core tarballs stand in for the registry's copies it depends on.
mkdir -p "$WORK/init"
(cd "$WORK/init" && npm exec --yes "${NPM_FLAGS[@]}" --package "$CREATE_TARBALL" --package "$CLI_TARBALL" --package "$TARBALL" -- create-mcpfusion "$WORK/starter" >"$WORK/init.log" 2>&1) || {
  cat "$WORK/init.log" >&2
  die "npm create mcpfusion (create-mcpfusion)"
}
grep -q 'npm run dev' "$WORK/init.log" || { cat "$WORK/init.log" >&2; die "init did not say to run npm run dev"; }
for file in package.json tsconfig.json tsconfig.build.json jest.config.js .gitignore .dockerignore Dockerfile README.md src/tools.ts src/app.ts src/main.ts test/tools.test.ts test/client.test.ts; do
  [[ -f "$WORK/starter/$file" ]] || die "mcpfusion init wrote no $file"
done
# What init wrote is the starter the repository holds (the package ships it).
diff -r -x package.json -x node_modules -x dist "$STARTER_SRC" "$WORK/starter" >&2 || die "mcpfusion init wrote something other than examples/starter"
grep -q '"experimentalDecorators": true' "$WORK/starter/tsconfig.json" && grep -q '"emitDecoratorMetadata": true' "$WORK/starter/tsconfig.json" ||
  die "the new project's tsconfig.json lacks a decorator flag"
cd "$WORK/starter"

step "npm install, with the core and cli tarballs for the registry's copies"
# Both at once: the project asks for @mcpfusion/cli too, which no registry here has.
npm pkg set "dependencies.@mcpfusion/core=file:$TARBALL" "devDependencies.@mcpfusion/cli=file:$CLI_TARBALL" || die "npm pkg set"
npm install "${NPM_FLAGS[@]}" --engine-strict || die "npm install"

step "one copy of each peer, the app's"
node - <<'JS' || die "a peer resolves to more than one copy"
const path = require('path');
const fromApp = (id) => require.resolve(id, { paths: [process.cwd()] });
const core = path.dirname(require.resolve('@mcpfusion/core/package.json', { paths: [process.cwd()] }));
let ok = true;
for (const id of ['tsyringe', 'reflect-metadata', 'class-validator', 'class-transformer']) {
  const app = fromApp(id);
  const lib = require.resolve(id, { paths: [core] });
  const ok1 = app === lib;
  ok &&= ok1;
  console.error(`  ${ok1 ? 'ok ' : 'BAD'} ${id}: ${path.relative(process.cwd(), app)}${ok1 ? '' : ` vs ${lib}`}`);
}
process.exit(ok ? 0 : 1);
JS
npm ls --all tsyringe class-validator class-transformer reflect-metadata >&2 || die "npm ls reports a problem with the peers"

step "loading both entry points from CommonJS and ESM"
node -e "
  const core = require('@mcpfusion/core');
  const testing = require('@mcpfusion/core/testing');
  if (typeof core.FusionApp?.create !== 'function' || typeof testing.connectTestClient !== 'function') process.exit(1);
" || die "require('@mcpfusion/core') or require('@mcpfusion/core/testing')"
node --input-type=module -e "
  import { FusionApp, Action, ToolProvider } from '@mcpfusion/core';
  import { connectTestClient } from '@mcpfusion/core/testing';
  if (typeof FusionApp?.create !== 'function' || typeof Action !== 'function' || typeof ToolProvider !== 'function' || typeof connectTestClient !== 'function') process.exit(1);
" || die "import { … } from '@mcpfusion/core' (ESM named exports)"

# Steps 3 to 5 on the TypeScript the project has now (tsc 7 from the starter's range as installed,
# then 6 and latest as a user moves between them with `npm i -D`, no flag).
verify() {
  local label="$1"
  step "[$label] npm run typecheck and npm run build ($(npx --no-install tsc --version))"
  npm run typecheck || die "[$label] npm run typecheck"
  npm run build || die "[$label] npm run build"

  step "[$label] npm test (jest, the tests compiled by @swc/jest)"
  npm test -- --ci || die "[$label] npm test"

  step "[$label] node dist/main.js serves HTTP"
  serve_and_list "$label"
  dev_edit "$label"
}

serve_and_list() {
  local label="$1"
  : >"$WORK/main.log"
  PORT=0 node dist/main.js 2>>"$WORK/main.log" &
  server_pid=$!
  local url=""
  for _ in $(seq 1 300); do
    url="$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$WORK/main.log")"
    url="${url%%$'\n'*}"
    [[ -n "$url" ]] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  [[ -n "$url" ]] || { cat "$WORK/main.log" >&2; die "[$label] dist/main.js did not report a URL"; }
  # An initialize over Streamable HTTP must answer 200 with a result.
  node - "$url" <<'JS' || { cat "$WORK/main.log" >&2; die "[$label] dist/main.js did not answer initialize"; }
const url = process.argv[2];
const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'check', version: '0' } } };
fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) })
  .then(async (res) => {
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"serverInfo"')) { console.error(res.status, text.slice(0, 300)); process.exit(1); }
    console.error(`  ${url} answered initialize (${res.status})`);
  })
  .catch((e) => { console.error(e); process.exit(1); });
JS
  step "[$label] npx mcpfusion (the package's terminal client) lists the running app"
  npx --no-install mcpfusion list "$url" >"$WORK/cli.log" 2>&1 || { cat "$WORK/cli.log" >&2; die "npx mcpfusion list $url"; }
  grep -q '^Tools (' "$WORK/cli.log" || { cat "$WORK/cli.log" >&2; die "npx mcpfusion list printed no tools"; }
  log "  $(grep '^Tools (' "$WORK/cli.log")"

  kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# `npm run dev` (mcpfusion dev, hot reload): a 2025-era client connected before an edit keeps its
# session, is told the tool list changed, and calls the tool the edit added. The edit is undone after.
dev_edit() {
  local label="$1"
  step "[$label] npm run dev: an edit adds a tool a connected 2025-era client sees without reconnecting"
  : >"$WORK/dev.log"
  cp src/tools.ts "$WORK/tools.ts.orig"
  npm run dev --silent -- --port 0 --no-inspector 2>>"$WORK/dev.log" &
  server_pid=$!
  node - "$WORK/dev.log" <<'JS' || { cp "$WORK/tools.ts.orig" src/tools.ts; cat "$WORK/dev.log" >&2; die "[$label] npm run dev did not hot-reload the edit"; }
const { readFileSync, writeFileSync } = require('fs');
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
const log = process.argv[2];
const until = (pattern, from = 0) =>
  new Promise((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const look = () => {
      const text = readFileSync(log, 'utf8').slice(from);
      const found = text.match(pattern);
      if (found) return resolve(found);
      if (Date.now() > deadline) return reject(new Error(`no ${pattern} in the dev log`));
      setTimeout(look, 100);
    };
    look();
  });
(async () => {
  const url = new URL((await until(/MCP endpoint: (\S+)/))[1]);
  await until(/serving /);
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'starter-check', version: '0' });
  let changed;
  const told = new Promise((resolve) => (changed = resolve));
  client.setNotificationHandler('notifications/tools/list_changed', () => changed());
  await client.connect(transport);
  const session = transport.sessionId;
  const before = (await client.listTools()).tools.map((t) => t.name);
  const mark = readFileSync(log, 'utf8').length;
  const source = readFileSync('src/tools.ts', 'utf8');
  const edited = source.replace(
    "  @Action('greet',",
    "  @Action('ping', { description: 'Added by an edit' })\n  ping(): string {\n    return 'pong';\n  }\n\n  @Action('greet',"
  );
  if (edited === source) throw new Error("src/tools.ts has no @Action('greet', to edit next to");
  writeFileSync('src/tools.ts', edited);
  await until(/reloaded: tools changed/, mark);
  await told;
  const after = (await client.listTools()).tools.map((t) => t.name);
  const result = await client.callTool({ name: 'ping', arguments: {} });
  if (transport.sessionId !== session) throw new Error('the session changed');
  if (before.includes('ping') || !after.includes('ping')) throw new Error(`tools before ${before}, after ${after}`);
  if (result.content?.[0]?.text !== 'pong') throw new Error(`ping answered ${JSON.stringify(result)}`);
  console.error(`  session ${session} kept; told tools changed; ${before.length} tools, then ${after.length}; ping answered pong`);
  await client.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
JS
  cp "$WORK/tools.ts.orig" src/tools.ts
  kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
  server_pid=""
  grep -q 'warning' "$WORK/dev.log" && grep 'warning' "$WORK/dev.log" >&2 || true
}

[[ "$(npx --no-install tsc --version)" == "Version 7."* ]] || die "the starter's range did not install TypeScript 7: $(npx --no-install tsc --version)"
if [[ "${STARTER_TYPESCRIPT:-both}" == installed ]]; then
  # Another Node line (scripts/ci/node-version.sh): the TypeScript the starter installs; the 6/7
  # matrix is the compiler's own behaviour, checked on the main line.
  verify "TypeScript 7 as installed"
else
  step "npm i -D typescript@6 (a project that stays on 6)"
  npm install -D "${NPM_FLAGS[@]}" typescript@6 || die "npm i -D typescript@6"
  [[ "$(npx --no-install tsc --version)" == "Version 6."* ]] || die "typescript@6 did not install: $(npx --no-install tsc --version)"
  verify "TypeScript 6"
  step "npm i -D typescript@latest (moving to today's TypeScript, no flag)"
  npm install -D "${NPM_FLAGS[@]}" typescript@latest || die "npm i -D typescript@latest"
  [[ "$(npx --no-install tsc --version)" == "Version 7."* ]] || die "typescript@latest is not 7: $(npx --no-install tsc --version)"
  verify "TypeScript 7"
fi

# The Dockerfile the project ships (docs/deploy.md): built and run where Docker is; elsewhere
# test/readme/deploy.test.ts checks it line by line against the starter.
if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
  step "docker build and run (the project's Dockerfile)"
  image="mcpfusion-starter-check:$$"
  docker build -q -t "$image" . >&2 || die "docker build"
  cid="$(docker run -d -p 127.0.0.1::3000 -e ALLOWED_HOSTS=127.0.0.1,localhost "$image")" || die "docker run"
  port=""
  for _ in $(seq 1 100); do
    docker logs "$cid" 2>&1 | grep -q 'listening on' && port="$(docker port "$cid" 3000/tcp | head -n 1 | sed 's/.*://')" && break
    sleep 0.2
  done
  curl -fsS -o /dev/null -X POST "http://127.0.0.1:$port/mcp" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check","version":"0"}}}' ||
    { docker logs "$cid" >&2; docker rm -f "$cid" >/dev/null; die "the container did not answer initialize"; }
  docker stop -t 10 "$cid" >/dev/null && docker rm "$cid" >/dev/null
  docker rmi "$image" >/dev/null 2>&1 || true
  log "  the image built, served initialize and stopped on SIGTERM"
else
  log "docker is not available here: the Dockerfile is checked by test/readme/deploy.test.ts instead"
fi

step "starter check passed"
