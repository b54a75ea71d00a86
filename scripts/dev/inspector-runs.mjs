#!/usr/bin/env node
// Runs the official MCP Inspector's CLI mode many times in a row against one sample-app server,
// as a developer trying things does: each run opens a 2025-era session, lists the tools, and goes
// without ending its session. Counts the runs that connect and list tools (the server must make
// room for new sessions by ending idle ones, not refuse the caller with HTTP 429 after twenty).
//
//   node scripts/dev/inspector-runs.mjs <inspector install dir> [runs=100]
//   INSPECTOR_DIR=/tmp/insp node scripts/dev/inspector-runs.mjs
//
// The inspector is not a dependency of this repository: install it elsewhere first
// (`mkdir /tmp/insp && cd /tmp/insp && npm i @modelcontextprotocol/inspector`). Without it the
// script says so and exits 0 (skipped). It runs the inspector's own bin (what
// `npx @modelcontextprotocol/inspector` runs in that folder):
//   mcp-inspector --cli <url> --transport http --method tools/list
// The server is build/sample-app/main.js (`npm run compile` first) on a free port with a database
// file in a temporary folder. Exits 1 when any run failed, after printing what it said.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.argv[2] ?? process.env.INSPECTOR_DIR;
const runs = Number(process.argv[3] ?? 100);
const bin = dir ? join(resolve(dir), 'node_modules', '.bin', 'mcp-inspector') : undefined;
if (!bin || !existsSync(bin)) {
  process.stdout.write(
    `skipped: the MCP Inspector is not installed${dir ? ` in ${dir}` : ''}. Install it outside the repository and pass its folder:\n` +
      '  mkdir /tmp/insp && cd /tmp/insp && npm i @modelcontextprotocol/inspector\n' +
      '  node scripts/dev/inspector-runs.mjs /tmp/insp\n'
  );
  process.exit(0);
}
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('usage: node scripts/dev/inspector-runs.mjs <inspector install dir> [runs]\n');
  process.exit(2);
}
const version = JSON.parse(
  readFileSync(join(resolve(dir), 'node_modules', '@modelcontextprotocol', 'inspector', 'package.json'), 'utf8')
).version;

/** Runs a command to its end: its exit code and what it printed. */
function run(command, args, options) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('close', (code, signal) => resolveRun({ code: code ?? signal, stdout, stderr }));
  });
}

const temp = mkdtempSync(join(tmpdir(), 'inspector-runs-'));
const server = spawn(process.execPath, [join(ROOT, 'build', 'sample-app', 'main.js')], {
  cwd: ROOT,
  env: { ...process.env, PORT: '0', BILLING_DB: join(temp, 'billing.db') },
  stdio: ['ignore', 'ignore', 'pipe']
});
const serverExited = new Promise((resolveExit) => server.once('exit', (code, signal) => resolveExit(code ?? signal)));
let serverLog = '';
const url = await new Promise((resolveUrl, reject) => {
  server.stderr.setEncoding('utf8').on('data', (chunk) => {
    serverLog += chunk;
    const match = /listening on (\S+)/.exec(serverLog);
    if (match) resolveUrl(match[1]);
  });
  serverExited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${serverLog}`)));
});

process.stdout.write(`MCP Inspector ${version}, ${runs} runs of tools/list against ${url}\n`);
const started = performance.now();
const failures = [];
let listed = 0;
for (let i = 1; i <= runs; i++) {
  const result = await run(bin, ['--cli', url, '--transport', 'http', '--method', 'tools/list'], { cwd: dir });
  let tools;
  try {
    tools = JSON.parse(result.stdout).tools;
  } catch {
    tools = undefined;
  }
  if (result.code === 0 && Array.isArray(tools) && tools.length > 0) listed++;
  else failures.push({ run: i, code: result.code, said: (result.stderr + result.stdout).trim().split('\n').slice(0, 6).join('\n') });
  if (i % 10 === 0) process.stdout.write(`  ${i} runs: ${listed} listed tools\n`);
}
const seconds = (performance.now() - started) / 1000;

server.kill('SIGTERM');
const serverCode = await serverExited;
rmSync(temp, { recursive: true, force: true });

for (const failure of failures.slice(0, 5)) process.stdout.write(`run ${failure.run} failed (exit ${failure.code}):\n${failure.said}\n`);
process.stdout.write(
  `${listed}/${runs} runs connected and listed tools in ${seconds.toFixed(1)} s (${((seconds / runs) * 1000).toFixed(0)} ms a run); ` +
    `the server exited ${serverCode === 0 ? 'cleanly' : `with ${serverCode}`} on SIGTERM\n`
);
process.exitCode = failures.length === 0 && serverCode === 0 ? 0 : 1;
