import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FifoMutex } from '../src/advanced';
import { connectRedis, RedisMutationLock, type RedisConnection } from '../src/redis';
import { startRedis, type RedisServer } from '../test/helpers/redis-server';
import { cpuUs } from './http';
import { fmt, summarize, timeCalls } from './stats';

/**
 * The keyed mutation lock (issue 26): what a lock costs alone, in process and on Redis; the
 * contended hand-off against the uncontended acquire-and-release (32 waiters over three
 * processes); Redis commands per mutation; and the throughput of a fleet of 1, 2 and 3
 * instances with keyed mutations on distinct keys, app-wide, and on one key, each instance's
 * CPU beside it. `node build/bench/keyed-lock.js` runs this section alone.
 */
export async function keyedLockRows(): Promise<string[]> {
  let redis: RedisServer;
  try {
    redis = await startRedis();
  } catch (error) {
    return ['', `keyed mutation lock: not measured (${(error as Error).message.split('\n')[0]})`];
  }
  const connection = await connectRedis(redis.url);
  try {
    return [...(await lockAlone(connection)), ...(await contended(redis)), ...(await fleet(redis, connection))];
  } finally {
    await connection.close();
    await redis.stop();
  }
}

const never = new AbortController().signal;

async function lockAlone(connection: RedisConnection): Promise<string[]> {
  const local = new FifoMutex();
  const remote = new RedisMutationLock(connection, { key: 'bench-alone' });
  const row = (label: string, samples: number[]) => {
    const s = summarize(samples);
    return `| ${label.padEnd(52)} | ${fmt(s.median).padStart(9)} | ${fmt(s.p99).padStart(8)} |`;
  };
  let n = 0;
  const rows = [
    '',
    '| lock alone, empty critical section, sequential       | median µs |  p99 µs |',
    '|------------------------------------------------------|-----------|---------|',
    row('in process, app-wide (acquire + release)', await timeCalls(20_000, async () => (await local.acquire(never))())),
    row('in process, one key', await timeCalls(20_000, async () => (await local.acquireKeys([`k${n++ % 64}`], never))())),
    row('in process, three keys', await timeCalls(20_000, async () => (await local.acquireKeys(['a', 'b', `k${n++ % 64}`], never))())),
    row('Redis, app-wide', await timeCalls(2_000, async () => (await remote.acquire(never))())),
    row('Redis, one key', await timeCalls(2_000, async () => (await remote.acquireKeys([`k${n++ % 64}`], never))())),
    row('Redis, three keys', await timeCalls(2_000, async () => (await remote.acquireKeys(['a', 'b', `k${n++ % 64}`], never))()))
  ];
  return rows;
}

/** `workers` loops over `processes` lock-worker processes contending for one key; ms per grant and commands per grant. */
async function contend(
  redis: RedisServer,
  processes: number,
  workers: number,
  iterations: number
): Promise<{ msPerGrant: number; commands: number }> {
  const key = `bench-contended-${processes}-${workers}-${Date.now()}`;
  const children: ChildProcess[] = [];
  for (let p = 0; p < processes; p++) {
    const share = Math.floor(workers / processes) + (p < workers % processes ? 1 : 0);
    const child = fork(join(__dirname, 'lock-worker.js'), [redis.url, key, String(share), String(iterations)], { stdio: 'inherit' });
    children.push(child);
    await once(child, 'message');
  }
  const start = performance.now();
  const results = children.map((child) => once(child, 'message').then(([m]) => m as { grants: number; commands: number }));
  for (const child of children) child.send('go');
  const done = await Promise.all(results);
  const ms = performance.now() - start;
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  const grants = done.reduce((sum, r) => sum + r.grants, 0);
  return { msPerGrant: ms / grants, commands: done.reduce((sum, r) => sum + r.commands, 0) / grants };
}

async function contended(redis: RedisServer): Promise<string[]> {
  const uncontended = await contend(redis, 1, 1, 2_000);
  const oneProcess = await contend(redis, 1, 32, 60);
  const threeProcesses = await contend(redis, 3, 32, 60);
  const line = (label: string, r: { msPerGrant: number; commands: number }) =>
    `| ${label.padEnd(52)} | ${fmt(r.msPerGrant * 1000).padStart(8)} | ${`${fmt(r.msPerGrant / uncontended.msPerGrant, 2)}x`.padStart(7)} | ${fmt(r.commands, 2).padStart(10)} |`;
  return [
    '',
    '| Redis lock, one key, empty critical section          | µs/grant | vs 1st | cmds/grant |',
    '|------------------------------------------------------|----------|---------|------------|',
    line('uncontended acquire + release (1 process, 1 loop)', uncontended),
    line('hand-off, 32 waiters in 1 process', oneProcess),
    line('hand-off, 32 waiters over 3 processes', threeProcesses)
  ];
}

interface Instance {
  readonly child: ChildProcess;
  readonly url: URL;
}

async function startInstance(redisUrl?: string): Promise<Instance> {
  const child = spawn(process.execPath, [join(__dirname, 'fleet-server.js'), ...(redisUrl ? [redisUrl] : [])], {
    stdio: ['ignore', 'pipe', 'inherit']
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, url: new URL(`http://127.0.0.1:${Number(String(chunk).trim())}/mcp`) };
}

async function stopInstance(instance: Instance): Promise<void> {
  const exited = once(instance.child, 'exit');
  instance.child.kill('SIGTERM');
  await exited;
}

const CLIENTS = 32;
const CALLS = Number(process.env.BENCH_FLEET_CALLS ?? 3_200);

/** `CALLS` mutations from 32 clients spread over the instances; calls/s and each instance's CPU (% of one core). */
async function drive(
  instances: readonly Instance[],
  tool: string,
  keyOf: (client: number) => string
): Promise<{ rate: number; cpu: number[]; driver: number; wallUs: number }> {
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(instances[i % instances.length].url));
    clients.push(client);
  }
  // Warm-up, then the measured run.
  await Promise.all(clients.map((client, i) => client.callTool({ name: tool, arguments: { key: keyOf(i) } })));
  let next = 0;
  const cpu0 = instances.map((instance) => cpuUs(instance.child.pid!));
  const driver0 = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      while (next++ < CALLS) {
        const result = await client.callTool({ name: tool, arguments: { key: keyOf(i) } });
        if (result.isError) throw new Error(JSON.stringify(result));
      }
    })
  );
  const wallUs = (performance.now() - start) * 1000;
  const cpu = instances.map((instance, i) => ((cpuUs(instance.child.pid!) - cpu0[i]) / wallUs) * 100);
  const used = process.cpuUsage(driver0);
  await Promise.all(clients.map((client) => client.close()));
  return { rate: CALLS / (wallUs / 1e6), cpu, driver: ((used.user + used.system) / wallUs) * 100, wallUs };
}

/** Redis's counters: commands processed (scripts' own commands included), EVAL calls, and its CPU (s). */
async function redisCounters(connection: RedisConnection): Promise<{ total: number; evals: number; cpu: number }> {
  const info = await connection.client.info();
  const num = (pattern: RegExp) => Number(pattern.exec(info)?.[1] ?? 0);
  return {
    total: num(/total_commands_processed:(\d+)/),
    evals: num(/cmdstat_eval:calls=(\d+)/),
    cpu: num(/used_cpu_sys:([\d.]+)/) + num(/used_cpu_user:([\d.]+)/)
  };
}

async function fleet(redis: RedisServer, connection: RedisConnection): Promise<string[]> {
  const rows = [
    '',
    `fleet: ${CALLS} mutations from ${CLIENTS} clients (2026-07-28, HTTP, one process) spread over the instances; CPU in % of one core`,
    "(scripts: lock round trips per mutation; commands: all Redis commands per mutation, the scripts' own included)",
    '',
    '| instances, lock, serialized on                       | mutations/s | scripts | commands | CPU % per instance | Redis CPU | clients CPU |',
    '|------------------------------------------------------|-------------|---------|----------|--------------------|-----------|-------------|'
  ];
  const line = (
    label: string,
    r: { rate: number; cpu: number[]; driver: number },
    redisStats?: { scripts: number; commands: number; cpu: number }
  ) =>
    `| ${label.padEnd(52)} | ${fmt(r.rate, 0).padStart(11)} | ${(redisStats ? fmt(redisStats.scripts, 2) : '-').padStart(7)} | ${(redisStats ? fmt(redisStats.commands, 1) : '-').padStart(8)} | ${r.cpu
      .map((c) => fmt(c, 0))
      .join(' / ')
      .padStart(18)} | ${(redisStats ? fmt(redisStats.cpu, 0) : '-').padStart(9)} | ${fmt(r.driver, 0).padStart(11)} |`;
  const alone = await startInstance();
  try {
    rows.push(line('1 instance, in-process lock, app-wide', await drive([alone], 'work.app', () => 'same')));
    rows.push(line('1 instance, in-process lock, keyed, distinct keys', await drive([alone], 'work.keyed', (i) => `k${i}`)));
  } finally {
    await stopInstance(alone);
  }
  for (const size of [1, 2, 3]) {
    const instances: Instance[] = [];
    try {
      for (let i = 0; i < size; i++) instances.push(await startInstance(redis.url));
      for (const [label, tool, keyOf] of [
        ['keyed, distinct keys', 'work.keyed', (i: number) => `k${i}`],
        ['app-wide', 'work.app', () => 'same'],
        ['keyed, one key', 'work.keyed', () => 'same']
      ] as const) {
        const before = await redisCounters(connection);
        const result = await drive(instances, tool, keyOf);
        const after = await redisCounters(connection);
        // The warm-up's calls are counted too (one per client).
        const mutations = CALLS + CLIENTS;
        rows.push(
          line(`${size} instance${size > 1 ? 's' : ''} on Redis, ${label}`, result, {
            scripts: (after.evals - before.evals) / mutations,
            commands: (after.total - before.total - 1) / mutations,
            cpu: (((after.cpu - before.cpu) * 1e6) / result.wallUs) * 100
          })
        );
      }
    } finally {
      await Promise.all(instances.map(stopInstance));
    }
  }
  return rows;
}

if (require.main === module) {
  void keyedLockRows().then((rows) => process.stdout.write(rows.join('\n') + '\n'));
}
