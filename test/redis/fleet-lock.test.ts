import { join } from 'node:path';
import { connectRedis, type RedisConnection } from '../../src/redis';
import { modernRequest } from '../helpers/raw-http';
import { ChildServers } from '../helpers/child-servers';
import { startRedis, testWithRedis, type RedisServer } from '../helpers/redis-server';

/** Two instances as child processes sharing the Redis mutation lock: no overlap, arrival order, an aborted waiter leaves. */
const PROBE = join(__dirname, '..', '..', 'build', 'test', 'fixtures', 'fleet-probe.js');

let redis: RedisServer;
let probe: RedisConnection;
const servers = new ChildServers();

const instance = (): Promise<URL> => servers.start([PROBE, redis.url], {}, /listening (\S+)/);

beforeAll(async () => {
  redis = await startRedis();
  probe = await connectRedis(redis.url);
});
afterAll(async () => {
  await servers.stopAll();
  await probe.close();
  await redis.stop();
}, 30_000);

function run(url: URL, args: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
  const { body, headers } = modernRequest('tools/call', { name: 'probe.run', arguments: args });
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
    signal
  }).then((res) => res.text());
}

/** Resolves once `predicate` holds of what Redis says (checked once per event-loop turn). */
async function until(predicate: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100_000; i++) {
    if (await predicate()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never: ${what}`);
}

testWithRedis('mutations on two instances never overlap, run in arrival order, and an aborted waiter leaves the line', async () => {
  const a = await instance();
  const b = await instance();
  const line = () => probe.client.lLen('{probe}:queue');
  const holder = run(a, { tag: 'h', hold: true });
  await until(async () => (await probe.client.lRange('probe:order', 0, -1)).includes('h'), 'the holder runs');
  const waiting: Array<Promise<string>> = [];
  const leaving = new AbortController();
  for (const [url, tag, signal] of [
    [b, '1'],
    [a, '2'],
    [b, '3', leaving.signal],
    [a, '4']
  ] as const) {
    waiting.push(run(url, { tag }, signal).catch((error: Error) => `aborted: ${error.name}`));
    const expected = waiting.length;
    await until(async () => (await line()) === expected, `${tag} in line`);
  }
  leaving.abort();
  await until(async () => (await line()) === 3, 'the aborted waiter left the line');
  await probe.client.set('probe:release:h', '1');
  const outcomes = await Promise.all([holder, ...waiting]);
  expect(outcomes[3]).toBe('aborted: AbortError');
  expect(await probe.client.lRange('probe:order', 0, -1)).toEqual(['h', '1', '2', '4']);
  expect(await probe.client.get('probe:overlaps')).toBeNull();
  // Every grant had its own, growing fencing token.
  const tokens = outcomes.filter((o) => o.includes('fencing token')).map((o) => Number(/fencing token (\d+)/.exec(o)![1]));
  expect(tokens).toHaveLength(4);
  expect([...tokens].sort((x, y) => x - y)).toEqual(tokens);
}, 60_000);

testWithRedis('Redis stopped mid-run: clean errors from both instances, then recovery, and no lock left held', async () => {
  const a = await instance();
  const b = await instance(); // b has not used the lock yet: its first use falls in the outage
  expect(await run(a, { tag: 'before' })).toContain('ran before');
  await redis.stop();
  for (const url of [a, b]) {
    const answer = await run(url, { tag: 'during' });
    expect(answer).toContain('The mutation lock is unavailable');
    expect(answer).toContain('nothing was changed');
  }
  await redis.start();
  // Each instance reconnects by itself, with its backoff; until then a call gets the clean error.
  for (const [url, tag] of [
    [a, 'after-a'],
    [b, 'after-b']
  ] as const) {
    let answer = await run(url, { tag });
    for (let i = 0; !answer.includes(`ran ${tag}`) && i < 400; i++) {
      expect(answer).toContain('The mutation lock is unavailable');
      await new Promise((resolve) => setTimeout(resolve, 25));
      answer = await run(url, { tag });
    }
    expect(answer).toContain(`ran ${tag}`);
  }
  const check = await connectRedis(redis.url);
  try {
    // A release is sent as the call ends, not awaited by its answer; and a grant whose reply the outage
    // swallowed is freed by its lease. Either way no holder outlives the lease (5 s) plus a poll.
    const since = Date.now();
    await until(async () => (await check.client.exists('{probe}:holder')) === 0, 'the holder key gone');
    expect(Date.now() - since).toBeLessThan(5_500);
    expect(await check.client.lLen('{probe}:queue')).toBe(0);
  } finally {
    await check.close();
  }
}, 90_000);
