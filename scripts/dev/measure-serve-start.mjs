#!/usr/bin/env node
// Times the gateway's cold start: `mcpfusion serve --url <upstream> --port 0`, from the moment node
// is spawned to the gateway's "listening on" line on stderr. The upstream is the sample app over
// Streamable HTTP (build/sample-app/main.js, port 0, its database in a temporary folder), started
// once for all runs; each gateway run is then ended by SIGTERM and awaited before the next.
// With --import it also times `node -e "require('<root>/dist/index.js')"` (the package's load alone),
// spawn to exit.
//
//   node scripts/dev/measure-serve-start.mjs [runs=10] [--import]
//
// Needs a fresh build (`npm run compile`). Prints each run's time, then min/median/max and the load
// average (the machine is shared: say how busy it was when quoting the numbers).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const withImport = args.includes('--import');
const runs = Number(args.find((arg) => !arg.startsWith('--')) ?? 10);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('usage: node scripts/dev/measure-serve-start.mjs [runs] [--import]\n');
  process.exit(2);
}

/**
 * Spawns `argv` and resolves once stderr matches `ready` (with the match and the milliseconds since
 * spawn); `exited` settles when the process has ended. Rejects if it exits first.
 */
function start(argv, ready, env = {}) {
  const started = performance.now();
  const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = ready.exec(stderr);
      if (match) resolve({ match, ms: performance.now() - started });
    });
    exited.then(({ code, signal }) => reject(new Error(`${argv.join(' ')} exited (${code ?? signal}) before listening:\n${stderr}`)));
  });
  return { child, listening, exited };
}

/** Median, min and max of a list of milliseconds, as one line. */
function summary(label, times) {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  return `${label}: min ${sorted[0].toFixed(0)} / median ${median.toFixed(0)} / max ${sorted.at(-1).toFixed(0)} ms over ${sorted.length} runs (load average ${load})\n`;
}

const dir = mkdtempSync(join(tmpdir(), 'measure-serve-'));
const upstream = start([process.execPath, 'build/sample-app/main.js'], /listening on (\S+)/, {
  PORT: '0',
  BILLING_DB: join(dir, 'billing.db')
});
try {
  const { match } = await upstream.listening;
  const url = new URL('mcp', match[1]).href;
  const gateway = [process.execPath, 'packages/cli/bin/mcpfusion.js', 'serve', '--url', url, '--port', '0'];
  const once = async () => {
    const run = start(gateway, /listening on /);
    try {
      return (await run.listening).ms;
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  };
  await once(); // untimed: warms the file cache
  const times = [];
  for (let i = 0; i < runs; i++) {
    const ms = await once();
    times.push(ms);
    process.stdout.write(`serve run ${i + 1}: ${ms.toFixed(0)} ms\n`);
  }
  process.stdout.write(summary(`mcpfusion serve --url ${url} --port 0 (spawn to "listening on")`, times));
} finally {
  upstream.child.kill('SIGTERM');
  await upstream.exited;
  rmSync(dir, { recursive: true, force: true });
}

if (withImport) {
  const script = `require(${JSON.stringify(join(ROOT, 'dist', 'index.js'))})`;
  const once = async () => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const { code } = await new Promise((resolve) => child.once('exit', (code) => resolve({ code })));
    if (code !== 0) throw new Error(`node -e require(dist/index.js) exited ${code}`);
    return performance.now() - started;
  };
  await once();
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  process.stdout.write(summary(`node -e "require('dist/index.js')" (spawn to exit)`, times));
}
