import 'reflect-metadata';
import { BenchProbe, bareSdkServer, benchApp, connectInMemory } from './contenders';
import { httpRows } from './http';
import { telemetryRows } from './telemetry';
import { gatewayRows } from './gateway';
import { keyedLockRows } from './keyed-lock';
import { sampleFleetRows } from './sample-fleet';
import { connectRedis, RedisContinuationStore, RedisMutationLock } from '../src/redis';
import { confirmApp } from './confirm-tools';
import { startRedis } from '../test/helpers/redis-server';
import { fmt, interleave, rowOf, summarize, tableHead, type RoundSamples } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const PER_ROUND = Number(process.env.BENCH_CALLS ?? 1000);
const HTTP_ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? 15);

async function overhead(): Promise<string[]> {
  const probe = new BenchProbe();
  const app = benchApp(probe);
  const sdk = await connectInMemory(bareSdkServer());
  const fusion = await connectInMemory(await app.serverFactory({ era: 'legacy' }));
  let n = 0;
  const noop = () => undefined;
  const samples = await interleave(ROUNDS, PER_ROUND, {
    sdk: () => sdk.callTool({ name: 'double', arguments: { n: n++ % 1000 } }),
    fusion: () => fusion.callTool({ name: 'double', arguments: { n: n++ % 1000 } }),
    sdkProgress: () => sdk.callTool({ name: 'double.stream', arguments: { n: n++ % 1000 } }, { onprogress: noop }),
    fusionProgress: () => fusion.callTool({ name: 'double.stream', arguments: { n: n++ % 1000 } }, { onprogress: noop }),
    directQuiet: () => app.callTool('double.quiet', { n: n++ % 1000 }),
    directNoToken: () => app.callTool('double.stream', { n: n++ % 1000 }),
    fusionDirect: () => app.callTool('double', { n: n++ % 1000 })
  });
  await Promise.all([sdk.close(), fusion.close()]);
  await app.close();
  return [
    ...tableHead('scenario (in-memory 2025-era client, sequential)'),
    rowOf(samples, 'bare SDK v2 McpServer tool', 'sdk'),
    rowOf(samples, '@mcpfusion/core tool', 'fusion', 'sdk'),
    rowOf(samples, 'bare SDK, progress token + 10 notifications', 'sdkProgress'),
    rowOf(samples, '@mcpfusion/core, progress token + 10 yields', 'fusionProgress', 'sdkProgress'),
    rowOf(samples, 'app.callTool, generator, 10 plain yields', 'directQuiet'),
    rowOf(samples, 'app.callTool, generator, 10 progress yields, no token', 'directNoToken', 'directQuiet'),
    rowOf(samples, '@mcpfusion/core app.callTool (no transport)', 'fusionDirect', 'sdk')
  ];
}

async function cancelToRelease(): Promise<string[]> {
  const probe = new BenchProbe();
  const app = benchApp(probe, { maxActive: 1, maxQueue: 16 });
  const latencies: number[] = [];
  // Starts from a collected heap, so the previous scenarios' garbage is not collected inside a sample.
  (globalThis as { gc?: () => void }).gc?.();
  for (let i = 0; i < 1000; i++) {
    const controller = new AbortController();
    const entered = new Promise<void>((resolve) => (probe.onEnter = resolve));
    const stuck = app.callTool('stuck', {}, { signal: controller.signal, onProgress: () => undefined });
    await entered;
    // The next mutation needs both the only queue slot and the mutex.
    const next = new Promise<void>((resolve) => (probe.onEnter = resolve));
    const follower = app.callTool('quick', {});
    const start = performance.now();
    controller.abort();
    await next;
    latencies.push(performance.now() - start);
    await Promise.all([stuck, follower]);
  }
  await app.close();
  const s = summarize(latencies);
  return [
    `cancel-to-release (generator blocked on a never-settling promise; abort → next mutation running, 1,000 runs): median ${fmt(s.median)} µs, p99 ${fmt(s.p99)} µs`
  ];
}

const MASS_CANCEL_ROUNDS = Number(process.env.BENCH_CANCEL_ROUNDS ?? 5);

/**
 * 10,000 calls queued behind one stuck call, all cancelled at once, against Node's own abort
 * dispatch for as many signals, interleaved round by round (one mass cancel alone is at the mercy
 * of one garbage collection or a neighbour's burst); ratio = median of the rounds' ratios.
 */
async function massCancel(): Promise<string[]> {
  const count = 10_000;
  const rounds: { ms: number; bare: number; heap: readonly number[]; cancelled: number }[] = [];
  for (let round = 0; round < MASS_CANCEL_ROUNDS; round++) {
    const ours = await massCancelOnce(count);
    rounds.push({ ...ours, bare: await bareAbortDispatch(count) });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const ms = median(rounds.map((r) => r.ms));
  const bare = median(rounds.map((r) => r.bare));
  const ratio = median(rounds.map((r) => r.ms / r.bare));
  const [heapBefore, heapQueued, heapAfter] = rounds[rounds.length - 1]!.heap;
  const mb = (b: number) => fmt(b / 1024 / 1024, 2);
  const gc = (globalThis as { gc?: () => void }).gc;
  return [
    `10,000 queued calls cancelled (median of ${rounds.length} rounds): ${rounds[0]!.cancelled} cancelled in ${fmt(ms)} ms; Node alone (10,000 signals aborted, each with one listener settling a promise) ${fmt(bare)} ms; ratio ${fmt(ratio, 2)}x`,
    `  heap in the last round: ${mb(heapBefore!)} MB before, ${mb(heapQueued!)} MB while queued, ${mb(heapAfter!)} MB after${gc ? '' : ' (run with --expose-gc for exact figures)'}`
  ];
}

async function massCancelOnce(count: number): Promise<{ ms: number; heap: readonly number[]; cancelled: number }> {
  const probe = new BenchProbe();
  const app = benchApp(probe, { maxActive: 1, maxQueue: count });
  const gc = (globalThis as { gc?: () => void }).gc;
  const holder = new AbortController();
  const entered = new Promise<void>((resolve) => (probe.onEnter = resolve));
  const blocker = app.callTool('stuck', {}, { signal: holder.signal });
  await entered;
  probe.onEnter = undefined;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const controllers = Array.from({ length: count }, () => new AbortController());
  const calls = controllers.map((c) => app.callTool('quick', {}, { signal: c.signal }));
  await new Promise((resolve) => setImmediate(resolve));
  const heapQueued = process.memoryUsage().heapUsed;
  const start = performance.now();
  // With a reason, as the SDK aborts a request the client cancelled (a bare abort() builds a DOMException with a stack).
  for (const c of controllers) c.abort('cancelled by the client');
  const results = await Promise.all(calls);
  const ms = performance.now() - start;
  const cancelled = results.filter((r) => r.isError).length;
  holder.abort();
  await blocker;
  controllers.length = 0;
  calls.length = 0;
  results.length = 0;
  gc?.();
  const heapAfter = process.memoryUsage().heapUsed;
  await app.close();
  return { ms, heap: [heapBefore, heapQueued, heapAfter], cancelled };
}

/** What the callers' side of the mass cancel costs with no framework at all: Node's abort dispatch. */
async function bareAbortDispatch(count: number): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const controllers = Array.from({ length: count }, () => new AbortController());
  const settled = controllers.map(
    (c) => new Promise<string>((resolve) => c.signal.addEventListener('abort', () => resolve('cancelled'), { once: true }))
  );
  await new Promise((resolve) => setImmediate(resolve));
  const start = performance.now();
  for (const c of controllers) c.abort('cancelled by the client');
  await Promise.all(settled);
  return performance.now() - start;
}

async function main(): Promise<void> {
  // One section alone, while working on it: BENCH_ONLY=mass-cancel, overhead, gateway or http.
  const only: Record<string, () => Promise<string[]>> = {
    'mass-cancel': massCancel,
    overhead,
    gateway: () => gatewayRows(ROUNDS, Number(process.env.BENCH_GATEWAY_CALLS ?? 200)),
    http: httpSection
  };
  const section = process.env.BENCH_ONLY ? only[process.env.BENCH_ONLY] : undefined;
  if (section) return void process.stdout.write((await section()).join('\n') + '\n');
  const out = [
    `@mcpfusion/core benchmark: node ${process.version}, ${ROUNDS} rounds x ${PER_ROUND} calls per contender, interleaved; ratio = median over rounds of the round medians' ratio`,
    '',
    ...(await overhead()),
    '',
    ...(await telemetryRows(ROUNDS, PER_ROUND)),
    '',
    ...(await gatewayRows(ROUNDS, Number(process.env.BENCH_GATEWAY_CALLS ?? 200))),
    '',
    ...(await cancelToRelease()),
    ...(await massCancel()),
    ...(await redisLock()),
    ...(await keyedLockRows()),
    ...(await sampleFleetRows()),
    ...(await confirmedRounds()),
    ...(HTTP_ROUNDS > 0 ? await httpSection() : [])
  ];
  // The benchmark is a CLI: its report is its output.
  process.stdout.write(out.join('\n') + '\n');
}

/** A mutation through the Redis lock (a real redis-server on 127.0.0.1) against the in-process lock. */
async function redisLock(): Promise<string[]> {
  let redis;
  try {
    redis = await startRedis();
  } catch (error) {
    return ['', `mutation through the Redis lock: not measured (${(error as Error).message.split('\n')[0]})`];
  }
  const connection = await connectRedis(redis.url);
  try {
    const local = benchApp(new BenchProbe());
    const fleet = benchApp(new BenchProbe(), undefined, undefined, new RedisMutationLock(connection, { key: 'bench' }));
    const samples = await interleave(ROUNDS, 200, {
      local: () => local.callTool('quick', {}),
      redis: () => fleet.callTool('quick', {})
    });
    await Promise.all([local.close(), fleet.close()]);
    return [
      '',
      ...tableHead('mutation, sequential (app.callTool)'),
      rowOf(samples, 'in-process FIFO lock', 'local'),
      rowOf(samples, 'RedisMutationLock (redis-server on 127.0.0.1)', 'redis', 'local')
    ];
  } finally {
    await connection.close();
    await redis.stop();
  }
}

async function httpSection(): Promise<string[]> {
  return [
    '',
    `HTTP: ${HTTP_ROUNDS} rounds of 400 sequential and 1,600 32-concurrent calls per contender and era; figures are medians over rounds (p99: over every round's calls pooled); ratio = median over rounds of @mcpfusion/core ÷ SDK (p99: of the pooled p99s)`,
    '',
    ...(await httpRows(HTTP_ROUNDS, 400, 1600))
  ];
}

void main();

/**
 * What an exactly-once round costs: a confirmed mutation (the question, then the confirming
 * round, through app.callTool) with a single-use state against the same tool exactly once (its
 * round claimed and its outcome recorded), in process and in Redis.
 */
async function confirmedRounds(): Promise<string[]> {
  const local = confirmApp();
  let next = 1;
  const rows = async (): Promise<RoundSamples> =>
    interleave(ROUNDS, 200, {
      single: () => local.callTool('confirm.single', { id: next++ }, { answers: { confirm: true } }),
      once: () => local.callTool('confirm.once', { id: next++ }, { answers: { confirm: true } })
    });
  const samples = await rows();
  const out = [
    '',
    ...tableHead('confirmed mutation, two rounds (app.callTool)'),
    rowOf(samples, 'singleUseState (state consumed)', 'single'),
    rowOf(samples, 'exactlyOnce (round claimed, outcome recorded)', 'once', 'single')
  ];
  await local.close();
  let redis;
  try {
    redis = await startRedis();
  } catch (error) {
    return [...out, `exactlyOnce with RedisContinuationStore: not measured (${(error as Error).message.split('\n')[0]})`];
  }
  const connection = await connectRedis(redis.url);
  try {
    const fleet = confirmApp(new RedisContinuationStore(connection, { key: 'bench-state-key-of-at-least-32-bytes!!' }));
    const remote = await interleave(ROUNDS, 100, {
      single: () => fleet.callTool('confirm.single', { id: next++ }, { answers: { confirm: true } }),
      once: () => fleet.callTool('confirm.once', { id: next++ }, { answers: { confirm: true } })
    });
    await fleet.close();
    return [
      ...out,
      rowOf(remote, 'singleUseState, RedisContinuationStore', 'single'),
      rowOf(remote, 'exactlyOnce, RedisContinuationStore', 'once', 'single')
    ];
  } finally {
    await connection.close();
    await redis.stop();
  }
}
