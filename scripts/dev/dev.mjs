#!/usr/bin/env node
// `npm run dev`: the sample app under `mcpfusion dev` (hot reload). Builds once if stale, then runs
// this repository's own `mcpfusion dev` on tsconfig.json with the sample's createBillingApp: an edit
// under sample-app/ reloads its tools, prompts, resources and views while clients stay connected
// (their sessions kept, list_changed sent). The framework itself (src/, served from dist/) is not
// reloaded in place: a second tsc --watch rebuilds dist/, and each clean rebuild restarts the dev
// server (clients then reconnect). tsc, never an esbuild runner: those drop the decorator metadata
// the framework reads. Extra arguments go to `mcpfusion dev` (`npm run dev -- --port 3100`).
// Ctrl-C stops everything.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const first = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dev', 'build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

const DEV_ARGS = [
  join(ROOT, 'packages', 'cli', 'bin', 'mcpfusion.js'),
  'dev',
  '--tsconfig',
  'tsconfig.json',
  '--app',
  'sample-app/app.ts#createBillingApp',
  ...process.argv.slice(2)
];

let stopping = false;
let server = startServer();

function startServer() {
  const child = spawn(process.execPath, DEV_ARGS, { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code) => {
    if (child.restarting) server = startServer();
    else stop(code ?? 0);
  });
  return child;
}

// The framework's build: its clean rebuilds (not the first report) restart the dev server on the new dist/.
const framework = spawn(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput', '--pretty', 'false'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit']
});
let reports = 0;
createInterface({ input: framework.stdout }).on('line', (line) => {
  if (/error TS\d+/.test(line)) process.stderr.write(`[framework] ${line}\n`);
  const found = /Found (\d+) errors?/.exec(line);
  if (!found || reports++ === 0 || stopping) return;
  if (found[1] !== '0') return void process.stderr.write('[framework] dist/ not rebuilt: fix the errors above\n');
  process.stderr.write('[framework] dist/ rebuilt: restarting the dev server (clients reconnect)\n');
  server.restarting = true;
  server.kill('SIGTERM');
});
framework.on('exit', (code) => stop(code ?? 0));

function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of [server, framework]) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
