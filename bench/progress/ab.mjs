// What the progress path costs next to the bare SDK, A/B in one run: the peer bench's `work{10}` row (a tools/call of
// `work` with steps 10 and a progress token; the client waits for the ten notifications and the result), sequential,
// in both protocol eras, against the peer bench's own server files: servers/baseline-v2.mjs (the bare SDK v2, its
// stateless legacy fallback for 2025-era clients) and servers/project.cjs (this framework, `listen({ transport:
// 'http' })`, sessions for 2025-era clients), one project server per checkout given (e.g. the branch and a copy of the
// tree before a change).
//
// As in the peer bench, every round starts fresh servers and brings each into the state the peer bench leaves it in
// before its work phase (the prelude: 2,200 sequential echo calls, 32 concurrent echo callers for 3 s, 20 work calls),
// then measures every target back to back, the order rotated each round: PER work{10} calls and PER echo calls per
// target and era. Reported per target and era, each as a ratio to the baseline's:
// - work p50 (the peer bench's row), and `work - echo`: work's p50 less echo's, what the ten notifications add to a
//   call (the progress path's own cost, without the request and response every call pays);
// - the server's CPU per work call (from /proc: user + system of its process; 10 ms ticks, so read it over many calls),
//   and per work call less per echo call (what the notifications cost the server), and the client's (this process).
// Ratios only: the machine is shared; read the spread of the per-round ratios printed beside each.
//
//   usage: node bench/progress/ab.mjs [--rounds 6] [--per 100] [--eras 2025,2026] [--steps 10] [--no-prelude]
//                                     [--pb /tmp/pb] [--prof DIR] [--stamp] [--gap MS] [--node-flags '...'] CHECKOUT...
//   e.g.   node bench/progress/ab.mjs --rounds 6 /tmp/before .        (each checkout built: `npm run compile`)
// --pb: where the peer bench is (its servers/ and node_modules/); default $PEER_BENCH, else /tmp/pb.
// --prof DIR runs every server with --cpu-prof (profiles written to DIR as each round's servers stop). --stamp preloads
// stamp.mjs into every server and adds the server's own part of each work call: its request's arrival to its answer's
// first write. --gap MS: every server idles MS before each of its measurements (the peer bench runs the other peers'
// phases in between). --node-flags: given to every server's node (e.g. V8 flags, to tell what an idle gap changes).
// Ports are picked at random in 39000-39999.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

// The client's fetch leaves an abort listener per request on the transport's shared signal until GC (as the peer bench
// notes): the warning it trips is the same for every target, and printing it costs the client more than the call.
process.removeAllListeners('warning');

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const [, value] = argv.splice(i, 2);
  return value;
};
const flag = (name) => {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) argv.splice(i, 1);
  return i >= 0;
};
const ROUNDS = Number(opt('rounds', 6));
const PER = Number(opt('per', 100));
const STEPS = Number(opt('steps', 10));
const ERAS = opt('eras', '2025,2026').split(',');
const PB = resolve(opt('pb', process.env.PEER_BENCH ?? '/tmp/pb'));
const PROF = opt('prof', undefined);
const PRELUDE = !flag('no-prelude');
const GAP = Number(opt('gap', 0));
const NODE_FLAGS = opt('node-flags', '').split(' ').filter(Boolean);
const STAMP = flag('stamp');
const checkouts = (argv.length ? argv : ['.']).map((dir) => resolve(dir));

const CLK_TCK = 100;
const cpuSeconds = (pid) => {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLK_TCK;
};
const canConnect = (p) =>
  new Promise((done) => {
    const s = connect({ host: '127.0.0.1', port: p });
    s.once('connect', () => (s.destroy(), done(true)));
    s.once('error', () => done(false));
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const STAMPS = STAMP ? mkdtempSync(join(tmpdir(), 'progress-ab-')) : undefined;
/** With --stamp: the server-side times (ms) the target's preload took since the last ask (SIGUSR2, then its file). */
async function stamps(pid) {
  const file = join(STAMPS, `${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  while (!existsSync(file)) await sleep(5);
  return JSON.parse(readFileSync(file, 'utf8'));
}

const live = new Set();
process.on('exit', () => live.forEach((c) => c.kill('SIGKILL')));
/** Starts one server on a free random port in 39000-39999; resolves once it accepts connections. */
async function start(name, args, env) {
  const pre = [
    ...NODE_FLAGS,
    ...(PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROF)}`, `--cpu-prof-name=${name}.${Date.now()}.cpuprofile`] : []),
    // The baseline has no SIGTERM handler, and a process a signal ends writes no profile.
    ...(PROF ? ['--import', join(HERE, 'exit-on-term.mjs')] : []),
    ...(STAMP ? ['--import', join(HERE, 'stamp.mjs')] : [])
  ];
  for (let attempt = 0; attempt < 10; attempt++) {
    const port = 39000 + Math.floor(Math.random() * 1000);
    if (await canConnect(port)) continue; // someone else's
    const child = spawn(process.execPath, [...pre, ...args], {
      env: { ...process.env, ...env, PORT: String(port), NODE_ENV: 'production', ...(STAMP ? { STAMP_DIR: STAMPS } : {}) },
      stdio: ['ignore', 'ignore', 'inherit']
    });
    live.add(child);
    let exited = false;
    child.once('exit', () => {
      exited = true;
      live.delete(child);
    });
    for (let i = 0; i < 500 && !exited; i++) {
      if (await canConnect(port)) return { name, child, pid: child.pid, url: new URL(`http://127.0.0.1:${port}/mcp`) };
      await sleep(20);
    }
    child.kill('SIGKILL');
  }
  throw new Error(`${name} did not start`);
}
async function stop(t) {
  if (t.child.exitCode !== null) return;
  const exited = new Promise((r) => t.child.once('exit', r));
  t.child.kill('SIGTERM');
  await exited;
}

async function client(url, era) {
  const c = new Client(
    { name: 'progress-ab', version: '1' },
    era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined
  );
  await c.connect(new StreamableHTTPClientTransport(url));
  return c;
}
async function work(c) {
  let got = 0;
  const t = performance.now();
  const r = await c.callTool({ name: 'work', arguments: { steps: STEPS } }, { onprogress: () => void got++ });
  const dt = performance.now() - t;
  if (got !== STEPS || r.content?.[0]?.text !== 'done')
    throw new Error(`work: ${got}/${STEPS} progress, ${JSON.stringify(r).slice(0, 200)}`);
  return dt;
}
let seq = 0;
async function echo(c) {
  const text = `hi ${++seq}`;
  const t = performance.now();
  const r = await c.callTool({ name: 'echo', arguments: { text } });
  const dt = performance.now() - t;
  if (r.content?.[0]?.text !== text) throw new Error(`echo: ${JSON.stringify(r).slice(0, 200)}`);
  return dt;
}
/** What the peer bench runs on a server before its work phase: 200 + 2000 sequential echo, 32 echo callers for 3 s, 20 work. */
async function prelude(c) {
  for (let i = 0; i < 2200; i++) await echo(c);
  const until = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) await echo(c);
    })
  );
}
const p50 = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};

const names = ['baseline', ...checkouts.map((dir) => basename(dir))];
/** Per target and era: every work and echo latency, per-round p50s, CPU seconds and work calls measured. */
const acc = new Map();
for (const era of ERAS)
  for (const name of names) acc.set(`${era} ${name}`, { work: [], echo: [], rw: [], re: [], srv: [], cpu: 0, ecpu: 0, client: 0, n: 0 });

for (let r = 0; r < ROUNDS; r++) {
  const targets = [await start('baseline', [resolve(PB, 'servers/baseline-v2.mjs')], {})];
  for (const dir of checkouts) targets.push(await start(basename(dir), [resolve(PB, 'servers/project.cjs')], { PROJECT_DIR: dir }));
  const slots = [];
  for (const era of ERAS) for (const t of targets) slots.push({ era, t, a: acc.get(`${era} ${t.name}`), c: await client(t.url, era) });
  for (const s of slots) {
    if (PRELUDE) await prelude(s.c);
    for (let i = 0; i < 20; i++) await work(s.c);
  }
  for (const era of ERAS) {
    const mine = slots.filter((s) => s.era === era);
    const order = mine.map((_, i) => mine[(i + r) % mine.length]);
    for (const s of order) {
      // --gap: the servers idle this long before each measurement, as in the peer bench, where every other peer's
      // phase runs between one peer's phases.
      if (GAP) await sleep(GAP);
      if (STAMP) await stamps(s.t.pid);
      const c0 = cpuSeconds(s.t.pid);
      const me0 = process.cpuUsage();
      const lat = [];
      for (let i = 0; i < PER; i++) lat.push(await work(s.c));
      s.a.cpu += cpuSeconds(s.t.pid) - c0;
      const me = process.cpuUsage(me0);
      s.a.client += (me.user + me.system) / 1e6;
      s.a.n += PER;
      if (STAMP) s.a.srv.push(...(await stamps(s.t.pid)));
      const e0 = cpuSeconds(s.t.pid);
      const el = [];
      for (let i = 0; i < PER; i++) el.push(await echo(s.c));
      s.a.ecpu += cpuSeconds(s.t.pid) - e0;
      s.a.work.push(...lat);
      s.a.echo.push(...el);
      s.a.rw.push(p50(lat));
      s.a.re.push(p50(el));
    }
  }
  for (const s of slots) await s.c.close();
  await Promise.all(targets.map(stop));
  process.stderr.write(`round ${r + 1}/${ROUNDS} done\n`);
}

const x = (a, b) => `${(a / b).toFixed(2)}x`;
const spread = (mine, base) => {
  const v = mine.map((m, i) => m / base[i]).sort((a, b) => a - b);
  return `${v[0].toFixed(2)}-${v[v.length - 1].toFixed(2)}`;
};
console.log(
  `work{${STEPS}} and echo, sequential; ${ROUNDS} rounds (fresh servers${PRELUDE ? ', peer-bench prelude' : ''}) x ${PER} calls per target and era, interleaved; servers from ${PB}`
);
for (const era of ERAS) {
  const base = acc.get(`${era} baseline`);
  const bw = p50(base.work);
  const be = p50(base.echo);
  for (const name of names) {
    const a = acc.get(`${era} ${name}`);
    const w = p50(a.work);
    const e = p50(a.echo);
    const cpu = (a.cpu / a.n) * 1e6;
    // The server CPU the ten notifications add to a call: CPU per work call less CPU per echo call.
    const pcpu = ((a.cpu - a.ecpu) / a.n) * 1e6;
    const bpcpu = ((base.cpu - base.ecpu) / base.n) * 1e6;
    const client = (a.client / a.n) * 1e6;
    const bcpu = (base.cpu / base.n) * 1e6;
    const bclient = (base.client / base.n) * 1e6;
    const deltas = a.rw.map((v, i) => v - a.re[i]);
    const bdeltas = base.rw.map((v, i) => v - base.re[i]);
    const srv = STAMP ? ` | server part p50 ${p50(a.srv).toFixed(3)} ms (${x(p50(a.srv), p50(base.srv))})` : '';
    console.log(
      `${era === '2026' ? '2026-07-28' : '2025-11-25'} ${name.padEnd(16)} work p50 ${w.toFixed(3)} ms (${x(w, bw)}, rounds ${spread(a.rw, base.rw)})` +
        ` | work-echo ${(w - e).toFixed(3)} ms (${x(w - e, bw - be)}, rounds ${spread(deltas, bdeltas)}) | echo p50 ${e.toFixed(3)} ms (${x(e, be)})` +
        ` | server CPU/work ${cpu.toFixed(0)} us (${x(cpu, bcpu)}), work-echo ${pcpu.toFixed(0)} us (${x(pcpu, bpcpu)}) | client CPU/work ${client.toFixed(0)} us (${x(client, bclient)})${srv}`
    );
  }
}
if (STAMPS) rmSync(STAMPS, { recursive: true, force: true });
