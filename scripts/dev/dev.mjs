#!/usr/bin/env node
// `npm run dev`: the sample app, restarted whenever a source changes. Builds once if stale,
// then runs two `tsc --watch` (the framework's dist/, which the sample imports as
// @mcpfusion/core, and build/) and `node --watch` on the compiled server, which restarts it
// when a file it loaded is rewritten. tsc, not an esbuild runner: those drop the decorator
// metadata the framework reads. Extra arguments go to the server (`npm run dev -- --stdio`
// makes little sense: use HTTP). Ctrl-C stops all three.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const first = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dev', 'build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  // --preserveWatchOutput keeps the server's lines on screen; tsc's own report goes to stdout as usual.
  spawn(process.execPath, [TSC, '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], { cwd: ROOT, stdio: 'inherit' }),
  spawn(process.execPath, [TSC, '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'], { cwd: ROOT, stdio: 'inherit' }),
  spawn(process.execPath, ['--watch', join(ROOT, 'build', 'sample-app', 'main.js'), ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit'
  })
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(0));
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
