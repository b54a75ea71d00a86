import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { cpuUs } from '../http';
import { fmt, median } from '../stats';

/**
 * The runtime bench (`npm run bench:runtimes`): the same `echo` tool over HTTP on Node, Bun and
 * Deno, the bare SDK v2's `createMcpHandler` beside the framework's `createHttpHandler().fetch`,
 * each served by the runtime's own server (see `server.ts`), driven from this Node process by
 * SDK v2 clients of both eras. Every figure is a median over rounds that alternate the
 * contenders; a ratio is the median of the rounds' ratios (framework ÷ SDK), so machine noise
 * hits both sides of it alike.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SEQ_CALLS = Number(process.env.BENCH_SEQ_CALLS ?? 300);
const CONC_CALLS = Number(process.env.BENCH_CONC_CALLS ?? 1200);
/**
 * Calls each contender serves (32 in flight) before the rounds of each era. Bun's engine (JSC)
 * keeps compiling a server's hot code on its JIT threads for its first ~20,000 calls (in process,
 * one contender alone, CPU per call fell from ~120 µs to ~50 µs around then): with a shorter
 * warm-up the rounds measure that compilation (counted, as it runs on the server's threads), not
 * a call. Node and Deno tier up over their first thousands of calls too; the same count serves
 * every runtime. The warm-up's own CPU per call
 * is a row of its own, so the one-time cost stays visible.
 */
const WARMUP_CALLS = Number(process.env.BENCH_WARMUP_CALLS ?? 20000);
/**
 * Sets of server processes per runtime, one after the other, their rounds pooled. Two processes
 * of the same contender differ by up to 10 to 20% in CPU per call at 32 in flight on Bun (each
 * keeps the JIT and heap state it happened to reach; 2026-12-05, `docs/performance.md`): one
 * pair of processes cannot resolve a gap of that size, several can.
 */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 3);
const CONCURRENCY = 32;
const ERAS = (process.env.BENCH_ERAS ?? '2026,2025').split(',') as Era[];
const BIN = resolve(__dirname, '../../../scripts/runtimes/node_modules/.bin');
const SERVER = join(__dirname, 'server.js');
/**
 * `BENCH_BASE=<a build directory>` (one holding `bench/runtimes/server.js`, for example a copy of
 * `build/` made before a change): its framework contender runs beside this build's, in the same
 * alternating rounds, in the third column (instead of `serveNode`), for an interleaved before/after.
 */
const BASE = process.env.BENCH_BASE ? join(resolve(process.env.BENCH_BASE), 'bench/runtimes/server.js') : undefined;

type Era = '2025' | '2026';
type Which = 'sdk' | 'fusion' | 'fusion-node' | 'base';

interface Runtime {
  readonly name: 'node' | 'bun' | 'deno';
  readonly command: string;
  readonly args: readonly string[];
}

const RUNTIMES: readonly Runtime[] = [
  { name: 'node', command: process.execPath, args: [SERVER] },
  { name: 'bun', command: join(BIN, 'bun'), args: [SERVER] },
  { name: 'deno', command: join(BIN, 'deno'), args: ['run', '--allow-all', SERVER] }
].filter((r) => (process.env.BENCH_RUNTIMES ?? 'node,bun,deno').split(',').includes(r.name)) as Runtime[];

interface Contender {
  readonly which: Which;
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: URL;
}

/** One phase's figures. */
interface Phase {
  readonly callsPerSecond: number;
  readonly p50: number;
  readonly cpuUsPerCall: number;
}

async function start(runtime: Runtime, which: Which): Promise<Contender> {
  const args = which === 'base' ? [...runtime.args.slice(0, -1), BASE!, 'fusion'] : [...runtime.args, which];
  const child = spawn(runtime.command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' }
  });
  const line = await new Promise<string>((resolveLine, reject) => {
    let buffered = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${runtime.name} ${which} exited (${code}) before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += String(chunk);
      const end = buffered.indexOf('\n');
      if (end >= 0) resolveLine(buffered.slice(0, end));
    });
  });
  child.removeAllListeners('exit');
  const { port, pid } = JSON.parse(line) as { port: number; pid: number };
  return { which, child, pid, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

async function stop(c: Contender): Promise<void> {
  if (c.child.exitCode !== null || c.child.signalCode !== null) return;
  const exited = new Promise((done) => c.child.once('exit', done));
  c.child.kill('SIGTERM');
  await exited;
}

async function connect(url: URL, era: Era): Promise<Client> {
  const client = new Client(
    { name: 'runtime-bench', version: '1.0.0' },
    era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

const TEXT = 'hello from the runtime bench';

/** Calls retried because a pooled keep-alive connection was closed by the server as the call went out. */
let retried = 0;

/**
 * One echo call. Node's fetch pools connections across clients, and a contender's pooled
 * connections sit idle while the others take their turns: a server may close one just as a call
 * goes out on it (a keep-alive race, not the server failing). Such a call is sent once more.
 */
async function callEcho(client: Client): Promise<Awaited<ReturnType<Client['callTool']>>> {
  try {
    return await client.callTool({ name: 'echo', arguments: { text: TEXT } });
  } catch (error) {
    if (!(error instanceof TypeError) || error.message !== 'fetch failed') throw error;
    retried++;
    process.stderr.write(`retrying a call: ${String((error as { cause?: unknown }).cause)}\n`);
    return client.callTool({ name: 'echo', arguments: { text: TEXT } });
  }
}

/** `total` echo calls, `concurrency` in flight, checking every answer. */
async function phase(client: Client, pid: number, total: number, concurrency: number): Promise<Phase> {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = cpuUs(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t = performance.now();
        const result = await callEcho(client);
        latencies.push(performance.now() - t);
        const content = result.content as { type: string; text?: string }[] | undefined;
        if (result.isError || content?.[0]?.text !== TEXT) throw new Error(`unexpected echo answer: ${JSON.stringify(result)}`);
      }
    })
  );
  const wall = performance.now() - t0;
  const cpu = cpuUs(pid) - cpu0;
  latencies.sort((a, b) => a - b);
  return { callsPerSecond: total / (wall / 1000), p50: latencies[latencies.length >> 1] * 1000, cpuUsPerCall: cpu / total };
}

interface Turns {
  seq: Phase[];
  conc: Phase[];
  /** The warm-up, one phase per set of processes. */
  warm: Phase[];
}

/**
 * The rows of one runtime: for each of `PROCESSES` sets, its contenders started side by side, then
 * per era a warm-up and rounds alternating them; the sets' rounds are pooled.
 */
async function runtimeRows(runtime: Runtime): Promise<string[]> {
  const whichs: Which[] = BASE ? ['sdk', 'fusion', 'base'] : runtime.name === 'node' ? ['sdk', 'fusion', 'fusion-node'] : ['sdk', 'fusion'];
  const turnsOf = new Map<Era, Turns[]>(ERAS.map((era) => [era, whichs.map(() => ({ seq: [], conc: [], warm: [] }))]));
  for (let set = 0; set < PROCESSES; set++) {
    const contenders: Contender[] = [];
    try {
      for (const which of whichs) contenders.push(await start(runtime, which));
      for (const era of ERAS) {
        process.stderr.write(
          `runtime bench: ${runtime.name}, ${era === '2026' ? '2026-07-28' : '2025-11-25'}, processes ${set + 1}/${PROCESSES}\n`
        );
        const turns = turnsOf.get(era)!;
        for (const [i, c] of contenders.entries()) {
          const client = await connect(c.url, era);
          turns[i].warm.push(await phase(client, c.pid, WARMUP_CALLS, CONCURRENCY)); // warm-up (JIT tiers, pools)
          await client.close();
        }
        for (let r = 0; r < ROUNDS; r++) {
          for (let k = 0; k < contenders.length; k++) {
            const i = (k + r) % contenders.length;
            const client = await connect(contenders[i].url, era);
            turns[i].seq.push(await phase(client, contenders[i].pid, SEQ_CALLS, 1));
            turns[i].conc.push(await phase(client, contenders[i].pid, CONC_CALLS, CONCURRENCY));
            await client.close();
          }
        }
      }
    } finally {
      await Promise.all(contenders.map(stop));
    }
  }
  const rows: string[] = [];
  for (const era of ERAS) {
    const turns = turnsOf.get(era)!;
    const m = (i: number, kind: keyof Turns, key: keyof Phase) => median(turns[i][kind].map((p) => p[key]));
    // Rounds (and warm-ups) are paired by index: the same set of processes, the same round.
    const ratio = (i: number, kind: keyof Turns, key: keyof Phase) => median(turns[i][kind].map((p, r) => p[key] / turns[0][kind][r][key]));
    const line = (label: string, kind: keyof Turns, key: keyof Phase) => {
      const cells = [fmt(m(0, kind, key), 0), fmt(m(1, kind, key), 0), `${fmt(ratio(1, kind, key), 2)}x`];
      if (turns.length > 2) cells.push(fmt(m(2, kind, key), 0), `${fmt(ratio(2, kind, key), 2)}x`);
      else cells.push('', '');
      return `| ${`${runtime.name} ${era === '2026' ? '2026-07-28' : '2025-11-25'}: ${label}`.padEnd(52)} | ${cells.map((c, j) => c.padStart([7, 7, 6, 10, 6][j])).join(' | ')} |`;
    };
    rows.push(
      line('sequential p50 µs', 'seq', 'p50'),
      line('sequential server CPU µs/call', 'seq', 'cpuUsPerCall'),
      line(`${CONCURRENCY} concurrent calls/s`, 'conc', 'callsPerSecond'),
      line(`${CONCURRENCY} concurrent server CPU µs/call`, 'conc', 'cpuUsPerCall'),
      line(`warm-up server CPU µs/call`, 'warm', 'cpuUsPerCall')
    );
  }
  return rows;
}

async function versionOf(runtime: Runtime): Promise<string> {
  if (runtime.name === 'node') return `node ${process.version}`;
  const child = spawn(runtime.command, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += String(chunk)));
  await new Promise((done) => child.once('exit', done));
  return `${runtime.name} ${out
    .split('\n')[0]
    .replace(/^deno /, '')
    .trim()}`;
}

async function main(): Promise<void> {
  const missing = RUNTIMES.filter((r) => r.name !== 'node' && !existsSync(r.command));
  if (missing.length > 0) {
    throw new Error(
      `${missing.map((r) => r.name).join(' and ')} not installed (${BIN}): run npm ci --prefix scripts/runtimes, or leave them out with BENCH_RUNTIMES=node`
    );
  }
  // The SDK client (2.4.0) leaves an abort listener behind per concurrent 2025-era call, whoever the
  // server is (see bench/http.ts); Node then warns once per listener past 1,500. Counted, not printed.
  let clientListenerWarnings = 0;
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'MaxListenersExceededWarning') clientListenerWarnings++;
    else process.stderr.write(`${warning.name}: ${warning.message}\n`);
  });
  const versions = await Promise.all(RUNTIMES.map(versionOf));
  const out: string[] = [
    `@mcpfusion/core runtime bench: ${versions.join(', ')}; the echo tool over HTTP on 127.0.0.1, each server in a child process, driven by SDK v2 clients from node ${process.version}`,
    `${PROCESSES} sets of server processes, each ${ROUNDS} rounds of ${SEQ_CALLS} sequential and ${CONC_CALLS} ${CONCURRENCY}-concurrent calls per contender and era, after a warm-up of ${WARMUP_CALLS} ${CONCURRENCY}-concurrent calls (its CPU is the warm-up row: the JIT's tier-up, once per process; in the second era only that era's own code is new); figures are medians over all rounds; ratio = median over rounds of framework ÷ SDK (the warm-up: over the sets)`,
    BASE
      ? `servers: Bun.serve, Deno.serve, node:http (through the SDK's toNodeHandler); the third column is the .fetch of ${BASE}, not serveNode`
      : "servers: Bun.serve, Deno.serve, node:http (SDK v2 and .fetch through the SDK's toNodeHandler; serveNode: what app.listen uses)",
    '',
    '| runtime, era: figure                                 | SDK v2  | .fetch  | ratio  | serveNode  | ratio  |',
    '|------------------------------------------------------|---------|---------|--------|------------|--------|'
  ];
  for (const runtime of RUNTIMES) out.push(...(await runtimeRows(runtime)));
  if (clientListenerWarnings > 0)
    out.push(
      '',
      `(the SDK client warned ${clientListenerWarnings} times of abort listeners it kept: its own leak under 2025-era concurrency)`
    );
  if (retried > 0) out.push('', `(${retried} calls were sent again after a pooled keep-alive connection closed under them)`);
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
