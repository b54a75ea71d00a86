import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FifoMutex } from '../src/advanced';
import { connectRedis, RedisMutationLock, type RedisConnection } from '../src/redis';
import { startRedis, type RedisServer } from '../test/helpers/redis-server';
import { cpuUs } from './http';
import { fmt, median, summarize, timeCalls } from './stats';

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

const CONTENDED_ROUNDS = Number(process.env.BENCH_LOCK_ROUNDS ?? 5);

/** Rounds of the three runs back to back (machine noise hits them alike); each row is the median over rounds, its ratio the median of the rounds' ratios. */
async function contended(redis: RedisServer): Promise<string[]> {
  const runs: Array<Array<{ msPerGrant: number; commands: number }>> = [[], [], []];
  for (let round = 0; round < CONTENDED_ROUNDS; round++) {
    runs[0].push(await contend(redis, 1, 1, 1_000));
    runs[1].push(await contend(redis, 1, 32, 40));
    runs[2].push(await contend(redis, 3, 32, 40));
  }
  const line = (label: string, i: number) => {
    const us = median(runs[i].map((r) => r.msPerGrant * 1000));
    const ratio = median(runs[i].map((r, round) => r.msPerGrant / runs[0][round].msPerGrant));
    const commands = median(runs[i].map((r) => r.commands));
    return `| ${label.padEnd(52)} | ${fmt(us).padStart(8)} | ${`${fmt(ratio, 2)}x`.padStart(7)} | ${fmt(commands, 2).padStart(10)} |`;
  };
  return [
    '',
    `Redis lock, one key, empty critical section: median over ${CONTENDED_ROUNDS} rounds (ratio: median of the rounds' ratios to the uncontended run)`,
    '',
    '| run                                                  | µs/grant | ratio   | cmds/grant |',
    '|------------------------------------------------------|----------|---------|------------|',
    line('uncontended acquire + release (1 process, 1 loop)', 0),
    line('hand-off, 32 waiters in 1 process', 1),
    line('hand-off, 32 waiters over 3 processes', 2)
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
  // A child that never reports its port fails the bench within 30 s instead of hanging it.
  const [chunk] = (await once(child.stdout!, 'data', { signal: AbortSignal.timeout(30_000) })) as [Buffer];
  return { child, url: new URL(`http://127.0.0.1:${Number(String(chunk).trim())}/mcp`) };
}

async function stopInstance(instance: Instance): Promise<void> {
  const exited = once(instance.child, 'exit');
  instance.child.kill('SIGTERM');
  await exited;
}

const CLIENTS = 32;
const CALLS = Number(process.env.BENCH_FLEET_CALLS ?? 2_000);
const FLEET_ROUNDS = Number(process.env.BENCH_FLEET_ROUNDS ?? 3);

/** The machine's CPU counters (all cores, in clock ticks): busy and total, from /proc/stat. */
function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const ticks = fields.map(Number);
  const total = ticks.reduce((sum, t) => sum + t, 0);
  // idle and iowait are not busy.
  return { busy: total - ticks[3] - ticks[4], total };
}

interface Drive {
  /** How busy the whole machine was (every process, other users' included), in % of all its cores. */
  readonly machine: number;
  readonly rate: number;
  readonly cpu: number[];
  readonly driver: number;
  readonly redis?: { readonly scripts: number; readonly commands: number; readonly cpu: number };
}

async function connectClients(instances: readonly Instance[]): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(instances[i % instances.length].url));
    clients.push(client);
  }
  return clients;
}

/** `calls` mutations from the clients; calls/s, each instance's CPU and the clients' (% of one core), Redis's counters. */
async function drive(
  clients: readonly Client[],
  instances: readonly Instance[],
  tool: string,
  keyOf: (client: number) => string,
  calls: number,
  connection?: RedisConnection
): Promise<Drive> {
  let next = 0;
  const before = connection ? await redisCounters(connection) : undefined;
  const cpu0 = instances.map((instance) => cpuUs(instance.child.pid!));
  const driver0 = process.cpuUsage();
  const machine0 = machineTicks();
  const start = performance.now();
  await Promise.all(
    clients.map(async (client, i) => {
      while (next++ < calls) {
        const result = await client.callTool({ name: tool, arguments: { key: keyOf(i) } });
        if (result.isError) throw new Error(JSON.stringify(result));
      }
    })
  );
  const wallUs = (performance.now() - start) * 1000;
  const cpu = instances.map((instance, i) => ((cpuUs(instance.child.pid!) - cpu0[i]) / wallUs) * 100);
  const used = process.cpuUsage(driver0);
  const machine1 = machineTicks();
  const after = connection ? await redisCounters(connection) : undefined;
  return {
    machine: ((machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total)) * 100,
    rate: calls / (wallUs / 1e6),
    cpu,
    driver: ((used.user + used.system) / wallUs) * 100,
    ...(before && after
      ? {
          redis: {
            scripts: (after.evals - before.evals) / calls,
            // The counters' own INFO is one command.
            commands: (after.total - before.total - 1) / calls,
            cpu: (((after.cpu - before.cpu) * 1e6) / wallUs) * 100
          }
        }
      : {})
  };
}

/** Redis's counters: commands processed (scripts' own commands included), script calls (EVALSHA, and EVAL the first time), and its CPU (s). */
async function redisCounters(connection: RedisConnection): Promise<{ total: number; evals: number; cpu: number }> {
  const info = await connection.client.info('all');
  const num = (pattern: RegExp) => Number(pattern.exec(info)?.[1] ?? 0);
  return {
    total: num(/total_commands_processed:(\d+)/),
    evals: num(/cmdstat_eval:calls=(\d+)/) + num(/cmdstat_evalsha:calls=(\d+)/),
    cpu: num(/used_cpu_sys:([\d.]+)/) + num(/used_cpu_user:([\d.]+)/)
  };
}

const MODES = [
  ['keyed, distinct keys', 'work.keyed', (i: number) => `k${i}`],
  ['app-wide', 'work.app', () => 'same'],
  ['keyed, one key', 'work.keyed', () => 'same']
] as const;

/** The median round of each mode (by rate), measured in rounds that rotate the modes, after a warm-up of each. */
async function measure(
  instances: readonly Instance[],
  modes: readonly (typeof MODES)[number][],
  connection?: RedisConnection
): Promise<Drive[]> {
  const clients = await connectClients(instances);
  try {
    for (const [, tool, keyOf] of modes) await drive(clients, instances, tool, keyOf, CALLS / 2);
    const rounds: Drive[][] = modes.map(() => []);
    for (let r = 0; r < FLEET_ROUNDS; r++) {
      for (let k = 0; k < modes.length; k++) {
        const m = (k + r) % modes.length;
        rounds[m].push(await drive(clients, instances, modes[m][1], modes[m][2], CALLS, connection));
      }
    }
    return rounds.map((samples) => [...samples].sort((a, b) => a.rate - b.rate)[samples.length >> 1]);
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

async function fleet(redis: RedisServer, connection: RedisConnection): Promise<string[]> {
  const rows = [
    '',
    `fleet: ${CALLS} mutations from ${CLIENTS} clients (2026-07-28, HTTP, one process) spread over the instances, a write of a Map`,
    `per mutation; the median of ${FLEET_ROUNDS} rounds that rotate the modes, after a warm-up. CPU in % of one core. scripts: lock`,
    "round trips per mutation; commands: every command Redis processed per mutation, the scripts' own included; machine: how",
    "busy the machine's cores were, other users' processes included (at 100 the figures are bounded by the CPU left over).",
    '',
    '| instances, lock, serialized on                       | mutations/s | scripts | commands | CPU % per instance | Redis CPU | clients CPU | machine % |',
    '|------------------------------------------------------|-------------|---------|----------|--------------------|-----------|-------------|-----------|'
  ];
  const line = (label: string, r: Drive) =>
    `| ${label.padEnd(52)} | ${fmt(r.rate, 0).padStart(11)} | ${(r.redis ? fmt(r.redis.scripts, 2) : '-').padStart(7)} | ${(r.redis ? fmt(r.redis.commands, 1) : '-').padStart(8)} | ${r.cpu
      .map((c) => fmt(c, 0))
      .join(' / ')
      .padStart(
        18
      )} | ${(r.redis ? fmt(r.redis.cpu, 0) : '-').padStart(9)} | ${fmt(r.driver, 0).padStart(11)} | ${fmt(r.machine, 0).padStart(9)} |`;
  const alone = await startInstance();
  try {
    const results = await measure([alone], MODES);
    MODES.forEach(([label], i) => rows.push(line(`1 instance, in-process lock, ${label}`, results[i])));
  } finally {
    await stopInstance(alone);
  }
  for (const size of [1, 2, 3]) {
    const instances: Instance[] = [];
    try {
      for (let i = 0; i < size; i++) instances.push(await startInstance(redis.url));
      const results = await measure(instances, MODES, connection);
      MODES.forEach(([label], i) => rows.push(line(`${size} instance${size > 1 ? 's' : ''} on Redis, ${label}`, results[i])));
    } finally {
      await Promise.all(instances.map(stopInstance));
    }
  }
  return rows;
}

if (require.main === module) {
  void keyedLockRows().then((rows) => process.stdout.write(rows.join('\n') + '\n'));
}
