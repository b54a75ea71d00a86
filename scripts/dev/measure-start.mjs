#!/usr/bin/env node
// Times `npm start` of the sample app: from the moment npm is spawned to the server's
// "billing-desk listening on …" line on stderr. Each run gets port 0 (the OS picks a free one)
// and the database file in a temporary folder that an untimed first run created and seeded (a
// second `npm start` finds its database there); the run then ends npm by SIGTERM and checks that
// the server (npm's child, `exec`ed by the start script's shell) exited with it.
//
//   node scripts/dev/measure-start.mjs [runs=10] [--when-idle] [-- command …]
//
// --when-idle (Linux): each run waits until the CPUs were at least 85% idle over the last second,
// so that a shared machine's other work does not land in the numbers (say which you quote).
//
// The default command is `npm start`; after `--` any other command line is timed the same way
// (e.g. `-- node build/sample-app/main.js` for the server alone). The build must be fresh
// (one `npm start` or `npm run compile` first): a run that prints "[build] compiling" is refused,
// since it would time the compiler. Prints each run's time, then min/median/max, and the load
// average (the machine is shared: say how busy it was when quoting the numbers).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dashDash = process.argv.indexOf('--');
const args = dashDash === -1 ? process.argv.slice(2) : process.argv.slice(2, dashDash);
const command = dashDash === -1 ? ['npm', 'start'] : process.argv.slice(dashDash + 1);
const whenIdle = args.includes('--when-idle');
const runs = Number(args.find((arg) => arg !== '--when-idle') ?? 10);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('usage: node scripts/dev/measure-start.mjs [runs] [--when-idle] [-- command …]\n');
  process.exit(2);
}

/** Is the process still there? (signal 0 checks without sending anything) */
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const dir = mkdtempSync(join(tmpdir(), 'measure-start-'));

/** The CPU counters of /proc/stat (user, nice, system, idle, iowait, …) summed over the CPUs. */
const cpuTimes = () => readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);

/** Resolves once the CPUs were at least 85% idle over one second (idle and iowait over the total). */
async function idle() {
  for (;;) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const delta = cpuTimes().map((n, i) => n - before[i]);
    if ((delta[3] + delta[4]) / delta.reduce((sum, n) => sum + n, 0) >= 0.85) return;
  }
}

/** One start: resolves with the milliseconds to the listening line, after the process tree has ended. */
function once() {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', BILLING_DB: join(dir, 'billing.db') },
    stdio: ['ignore', 'ignore', 'pipe']
  });
  let stderr = '';
  let elapsed;
  let serverPid;
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const listening = new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('[build] compiling')) reject(new Error('the build is stale: run `npm run compile` (or one `npm start`) first'));
      const match = /billing-desk listening on \S+ \(pid (\d+)\)/.exec(stderr);
      if (match && elapsed === undefined) {
        elapsed = performance.now() - started;
        serverPid = Number(match[1]);
        resolve();
      }
    });
    exited.then(({ code, signal }) => reject(new Error(`exited (${code ?? signal}) before listening:\n${stderr}`)));
  });
  return listening
    .finally(() => child.kill('SIGTERM'))
    .then(() => exited)
    .then(() => {
      // npm start's script `exec`s the server, so npm's child is the server: it must be gone with npm.
      if (serverPid !== undefined && alive(serverPid)) {
        process.kill(serverPid, 'SIGKILL');
        throw new Error(`the server (pid ${serverPid}) outlived npm`);
      }
      return elapsed;
    });
}

// Untimed: creates and seeds the database, and warms the file cache after a compile.
await once();
const times = [];
for (let i = 0; i < runs; i++) {
  if (whenIdle) await idle();
  const ms = await once();
  times.push(ms);
  process.stdout.write(`run ${i + 1}: ${ms.toFixed(0)} ms\n`);
}
rmSync(dir, { recursive: true, force: true });
times.sort((a, b) => a - b);
const median = times.length % 2 ? times[(times.length - 1) / 2] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
process.stdout.write(
  `${command.join(' ')}${whenIdle ? ' (each run on an idle machine)' : ''}: min ${times[0].toFixed(0)} / median ${median.toFixed(0)} / max ${times.at(-1).toFixed(0)} ms over ${runs} runs` +
    ` (load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')})\n`
);
