import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fmt, median } from './stats';

interface Contender {
  readonly name: 'sdk' | 'fusion';
  readonly child: ChildProcess;
  readonly url: URL;
}

/** One phase's figures, and its latencies (ms) for the percentiles pooled over rounds. */
interface Phase {
  readonly callsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuUsPerCall: number;
  readonly latencies: readonly number[];
}

async function start(name: Contender['name']): Promise<Contender> {
  const child = spawn(process.execPath, [join(__dirname, 'http-server.js'), name], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
  });
  return { name, child, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

async function stop(c: Contender): Promise<void> {
  const exited = new Promise((resolve) => c.child.once('exit', resolve));
  c.child.kill('SIGTERM');
  await exited;
}

/**
 * The CPU time a process has used, in µs, summed over its threads from `/proc/<pid>/task/<tid>/schedstat`
 * (nanoseconds on the CPU, user and system alike; `stat`'s utime + stime count 10 ms clock ticks, about 4%
 * of a round's sequential phase). What the server spent, whatever the client did. A thread that ended
 * between two reads is missed by the second: the servers keep theirs (V8's and libuv's) for their lifetime.
 */
export function cpuUs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended while being read.
    }
  }
  return ns / 1000;
}

async function connect(url: URL, era: '2025' | '2026'): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

type Figure = Exclude<keyof Phase, 'latencies'>;

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** `total` calls, `concurrency` in flight; latencies in ms. */
async function phase(client: Client, pid: number, total: number, concurrency: number): Promise<Phase> {
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = cpuUs(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = next++;
        const t = performance.now();
        await client.callTool({ name: 'double', arguments: { n: n % 1000 } });
        latencies.push(performance.now() - t);
      }
    })
  );
  const wall = performance.now() - t0;
  const cpu = cpuUs(pid) - cpu0;
  latencies.sort((a, b) => a - b);
  return {
    callsPerSecond: total / (wall / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuUsPerCall: cpu / total,
    latencies
  };
}

/**
 * The HTTP rows: each contender's server in a child process on 127.0.0.1, driven by one SDK v2
 * client per era from this process; rounds alternate the contenders (and rotate who goes first),
 * and every figure is the median over rounds.
 */
export async function httpRows(rounds: number, seqCalls: number, concCalls: number): Promise<string[]> {
  // The SDK client (2.4.0) leaves an abort listener behind per concurrent 2025-era call, whoever
  // the server is; Node then warns once per listener past 1,500. Counted, not printed.
  let clientListenerWarnings = 0;
  const onWarning = (warning: Error): void => {
    if (warning.name === 'MaxListenersExceededWarning') clientListenerWarnings++;
    else process.stderr.write(`${warning.name}: ${warning.message}\n`);
  };
  const defaultHandlers = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', onWarning);
  const contenders = [await start('sdk'), await start('fusion')];
  const rows: string[] = [
    '| scenario (HTTP on 127.0.0.1, server in a child process) | SDK v2 | @mcpfusion/core | ratio |',
    '|----------------------------------------------------------|--------|-----------------|-------|'
  ];
  try {
    for (const era of ['2025', '2026'] as const) {
      const results = contenders.map(() => ({ seq: [] as Phase[], conc: [] as Phase[] }));
      for (const c of contenders) {
        const client = await connect(c.url, era);
        await phase(client, c.child.pid!, 300, 8); // warm-up
        await client.close();
      }
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < contenders.length; k++) {
          const i = (k + r) % contenders.length;
          // A fresh client per turn: the SDK client's own per-call leftovers (see below) do not pile up across rounds.
          const client = await connect(contenders[i].url, era);
          results[i].seq.push(await phase(client, contenders[i].child.pid!, seqCalls, 1));
          results[i].conc.push(await phase(client, contenders[i].child.pid!, concCalls, 32));
          await client.close();
        }
      }
      // A p99 of one round is a handful of samples: the p99 rows pool every round's latencies.
      const pooled = (i: number, kind: 'seq' | 'conc') =>
        percentile(
          results[i][kind].flatMap((p) => p.latencies).sort((a, b) => a - b),
          0.99
        );
      const m = (i: number, kind: 'seq' | 'conc', key: Figure) =>
        key === 'p99' ? pooled(i, kind) : median(results[i][kind].map((p) => p[key]));
      // Each round's two turns ran back to back: the ratio is the median of the rounds' ratios (of the pooled p99s for p99).
      const ratio = (kind: 'seq' | 'conc', key: Figure) =>
        key === 'p99' ? pooled(1, kind) / pooled(0, kind) : median(results[1][kind].map((p, r) => p[key] / results[0][kind][r][key]));
      const line = (label: string, kind: 'seq' | 'conc', key: Figure, digits: number, scale = 1) => {
        const [a, b] = [m(0, kind, key) * scale, m(1, kind, key) * scale];
        return `| ${`${era === '2025' ? '2025-11-25' : '2026-07-28'}: ${label}`.padEnd(56)} | ${fmt(a, digits).padStart(6)} | ${fmt(b, digits).padStart(15)} | ${`${fmt(ratio(kind, key), 2)}x`.padStart(5)} |`;
      };
      rows.push(
        line('sequential calls/s', 'seq', 'callsPerSecond', 0),
        line('sequential p50 µs', 'seq', 'p50', 0, 1000),
        line('sequential p99 µs', 'seq', 'p99', 0, 1000),
        line('sequential server CPU µs/call', 'seq', 'cpuUsPerCall', 0),
        line('32 concurrent calls/s', 'conc', 'callsPerSecond', 0),
        line('32 concurrent p99 µs', 'conc', 'p99', 0, 1000),
        line('32 concurrent server CPU µs/call', 'conc', 'cpuUsPerCall', 0)
      );
    }
  } finally {
    await Promise.all(contenders.map(stop));
    process.off('warning', onWarning);
    for (const handler of defaultHandlers) process.on('warning', handler);
  }
  if (clientListenerWarnings > 0) {
    rows.push(
      '',
      `(the SDK client warned ${clientListenerWarnings} times of abort listeners it kept on one signal: its own leak under 2025-era concurrency, with either server)`
    );
  }
  return rows;
}
