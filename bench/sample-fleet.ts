import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startRedis, type RedisServer } from '../test/helpers/redis-server';
import { cpuUs } from './http';
import { fmt, median } from './stats';

/**
 * Issue 26's own measure: the sample app's `reports.rebuild {throttleMs: 0}` (a real mutation:
 * one SQLite write transaction that rebuilds the monthly aggregates) from 32 clients over HTTP,
 * on one instance with the in-process lock against a fleet of two instances on the Redis lock
 * (app-wide: the rebuild is), sharing one SQLite file. Rounds alternate the two; each row is the
 * median round, the ratio the median of the rounds' ratios. `node build/bench/sample-fleet.js`
 * runs this section alone.
 */
export async function sampleFleetRows(): Promise<string[]> {
  let redis: RedisServer;
  try {
    redis = await startRedis();
  } catch (error) {
    return ['', `sample app fleet: not measured (${(error as Error).message.split('\n')[0]})`];
  }
  const one: Run[] = [];
  const two: Run[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      one.push(await measure(1));
      two.push(await measure(2, redis.url));
    }
  } finally {
    await redis.stop();
  }
  const row = (label: string, runs: Run[], ratio: string) => {
    const mid = [...runs].sort((a, b) => a.rate - b.rate)[runs.length >> 1];
    return `| ${label.padEnd(44)} | ${fmt(mid.rate, 0).padStart(11)} | ${ratio.padStart(7)} | ${mid.cpu.map((c) => fmt(c, 0)).join(' / ').padStart(18)} |`;
  };
  return [
    '',
    `sample app, reports.rebuild {throttleMs: 0}: ${CALLS} calls from ${CLIENTS} clients (2026-07-28, HTTP), after a warm-up; median of ${ROUNDS}`,
    'alternating rounds; ratio: median of the rounds\' ratios to one instance; CPU in % of one core.',
    '',
    '| instances, lock                              | mutations/s | ratio   | CPU % per instance |',
    '|----------------------------------------------|-------------|---------|--------------------|',
    row('1 instance, in-process lock', one, '1.00x'),
    row('2 instances, Redis lock (app-wide), one file', two, `${fmt(median(two.map((r, i) => r.rate / one[i].rate)), 2)}x`)
  ];
}

const CLIENTS = 32;
const CALLS = Number(process.env.BENCH_SAMPLE_CALLS ?? 1_500);
const ROUNDS = Number(process.env.BENCH_SAMPLE_ROUNDS ?? 3);
/** How long an instance may take to say it listens. */
const STARTUP_MS = 30_000;

interface Run {
  readonly rate: number;
  readonly cpu: number[];
}

/** Starts `size` sample-app instances (on Redis when `redisUrl` is given) on one fresh SQLite file, drives them, stops them. */
async function measure(size: number, redisUrl?: string): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpfusion-sample-fleet-'));
  const instances: Array<{ child: ChildProcess; url: URL }> = [];
  const clients: Client[] = [];
  try {
    for (let i = 0; i < size; i++) instances.push(await startInstance(join(dir, 'billing.db'), redisUrl));
    for (let i = 0; i < CLIENTS; i++) {
      const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(instances[i % size].url));
      clients.push(client);
    }
    await drive(clients, CALLS / 5);
    const cpu0 = instances.map(({ child }) => cpuUs(child.pid!));
    const start = performance.now();
    await drive(clients, CALLS);
    const wallUs = (performance.now() - start) * 1000;
    return {
      rate: CALLS / (wallUs / 1e6),
      cpu: instances.map(({ child }, i) => ((cpuUs(child.pid!) - cpu0[i]) / wallUs) * 100)
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(
      instances.map(async ({ child }) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      })
    );
    rmSync(dir, { recursive: true, force: true });
  }
}

async function drive(clients: readonly Client[], calls: number): Promise<void> {
  let next = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (next++ < calls) {
        const result = await client.callTool({ name: 'reports.rebuild', arguments: { throttleMs: 0 } });
        if (result.isError) throw new Error(JSON.stringify(result));
      }
    })
  );
}

/** One sample-app process on a free port of 127.0.0.1; resolves with its URL once it listens. */
async function startInstance(database: string, redisUrl?: string): Promise<{ child: ChildProcess; url: URL }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', BILLING_DB: database, FUSION_STATE_KEY: 'bench-state-key-of-thirty-two-bytes!!', ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const child = spawn(process.execPath, [join(__dirname, '..', 'sample-app', 'main.js')], { stdio: ['ignore', 'ignore', 'pipe'], env });
  // A child that never says it listens fails the bench within the deadline instead of hanging it.
  const deadline = AbortSignal.timeout(STARTUP_MS);
  const exited = once(child, 'exit', { signal: deadline }).then(() => Buffer.from(''));
  exited.catch(() => undefined);
  let said = '';
  try {
    for (;;) {
      const chunk = await Promise.race([once(child.stderr!, 'data', { signal: deadline }).then(([data]) => data as Buffer), exited]);
      if (chunk.length === 0) throw new Error(`the sample app exited: ${said}`);
      said += String(chunk);
      const listening = /listening on (http:\/\/\S+)/.exec(said);
      if (listening) return { child, url: new URL(listening[1]) };
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`the sample app did not start (deadline ${STARTUP_MS} ms): ${(error as Error).message} ${said}`);
  }
}

if (require.main === module) {
  void sampleFleetRows().then((rows) => process.stdout.write(rows.join('\n') + '\n'));
}
