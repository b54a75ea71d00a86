// Measures the Workers template under `wrangler dev` (issue 44, item 7): its cold start and the CPU
// of its first requests. Run from a copy of the template whose node_modules resolve (the target
// suite's scratch copy does; or after `npm install` in a project made from it):
//   node scripts/workerd/measure-template.mjs <template-copy-dir>
// CPU is read from /proc for the workerd process (every thread's time on a CPU, in ns, from
// /proc/<pid>/task/*/schedstat), so a number here includes workerd's own HTTP work (and wrangler's
// proxy worker, which runs in the same process): an upper bound of the Worker's CPU.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/workerd/measure-template.mjs <template-copy-dir>');
const require = createRequire(join(dir, 'package.json'));
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');

function cpuMsOf(pid) {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return +(ns / 1e6).toFixed(1);
}

function descendants(pid) {
  const children = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1].split(' ')[1]) === pid) children.push(Number(entry), ...descendants(Number(entry)));
    } catch {
      // gone
    }
  }
  return children;
}

const started = performance.now();
const child = spawn(
  process.execPath,
  [
    join(dir, 'node_modules', '.bin', 'wrangler'),
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    '0',
    '--inspector-port',
    '0',
    '--show-interactive-dev-session=false',
    '--var',
    'STATE_KEY:measure-measure-measure-measure-measure'
  ],
  { cwd: dir, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] }
);
let seen = '';
let built;
const base = await new Promise((resolve, reject) => {
  const read = (chunk) => {
    seen += chunk.toString();
    if (built === undefined && /Starting local server/.test(seen)) built = performance.now();
    const match = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
    if (match) resolve(match[1]);
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  child.once('exit', (code) => reject(new Error(`wrangler exited ${code}:\n${seen}`)));
});
const ready = performance.now();
const workerd = descendants(child.pid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd'));
const cpu = () => cpuMsOf(workerd);

const rows = [];
async function step(name, body) {
  const cpu0 = cpu();
  const t0 = performance.now();
  await body();
  rows.push({ step: name, wallMs: +(performance.now() - t0).toFixed(1), workerdCpuMs: +(cpu() - cpu0).toFixed(1) });
}
const client = new Client({ name: 'measure', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await step('first request (app made, connect)', () => client.connect(new StreamableHTTPClientTransport(new URL('/mcp', base))));
await step('tools/list', () => client.listTools());
await step('first tools/call greet (schema prepared)', () => client.callTool({ name: 'greet', arguments: { name: 'Ada' } }));
await step('second tools/call greet', () => client.callTool({ name: 'greet', arguments: { name: 'Bob' } }));
await client.close();
console.log(
  JSON.stringify(
    {
      spawnToBuiltMs: built === undefined ? null : +(built - started).toFixed(0),
      builtToReadyMs: built === undefined ? null : +(ready - built).toFixed(0),
      spawnToReadyMs: +(ready - started).toFixed(0),
      workerdCpuAtReadyMs: +(cpuMsOf(workerd) - rows.reduce((sum, row) => sum + row.workerdCpuMs, 0)).toFixed(1),
      steps: rows
    },
    null,
    2
  )
);
const exited = once(child, 'exit');
child.kill('SIGTERM');
await exited;
