import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import fc from 'fast-check';
import type { LockRelease } from '../../src/advanced';
import { connectRedis, RedisMutationLock, type RedisConnection } from '../../src/redis';
import { commandsArbitrary, MODEL_SEED, runModel, type LockUnderTest } from '../helpers/lock-model';
import { startRedis, type RedisServer, describeWithRedis } from '../helpers/redis-server';

/**
 * The keyed Redis mutation lock against a real redis-server: per-key FIFO, the readers-writer
 * rule, one woken waiter per hand-off, nothing left behind; and the model-based property test
 * with the lock's instances in two processes (this one and a child, `lock-child.ts`).
 */
const CHILD = join(__dirname, '..', '..', 'build', 'test', 'helpers', 'lock-child.js');

let redis: RedisServer;
let probe: RedisConnection;
const connections: RedisConnection[] = [];
let prefix = 0;
let remoteIds = 0;
const never = (): AbortSignal => new AbortController().signal;

beforeAll(async () => {
  redis = await startRedis();
  probe = await connectRedis(redis.url);
});
afterAll(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await probe.close();
  await redis.stop();
});

async function instance(key: string, options: { leaseMs?: number; pollMs?: number } = {}): Promise<RedisMutationLock> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  return new RedisMutationLock(connection, { key, leaseMs: options.leaseMs ?? 5_000, pollMs: options.pollMs ?? 100 });
}

/** The keys of lock `key` in Redis now, but its fencing counter. */
async function leftBehind(key: string): Promise<string[]> {
  const keys = await probe.client.keys(`{${key}}*`);
  return keys.filter((k) => k !== `{${key}}:fence`).sort();
}

/** Resolves once nothing of lock `key` but its counter is in Redis (releases are sent, not awaited, by their caller). */
async function drained(key: string): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if ((await leftBehind(key)).length === 0) return;
    await turn();
  }
  throw new Error(`left behind in Redis: ${(await leftBehind(key)).join(', ')}`);
}

/** Resolves once `lock` has placed `count` acquisitions in all. */
async function placed(lock: RedisMutationLock, count: number): Promise<void> {
  while (lock.placements < count) await turn();
}

describeWithRedis('RedisMutationLock, keyed', () => {
  it('runs disjoint keys on two instances at once and one key in arrival order across them', async () => {
    const key = `keyed-${prefix++}`;
    const [a, b] = [await instance(key), await instance(key)];
    const one = await a.acquireKeys(['invoice:1'], never());
    const two = await b.acquireKeys(['invoice:2'], never());
    const order: string[] = [];
    const next = b.acquireKeys(['invoice:1'], never()).then((r) => (order.push('b'), r));
    await placed(b, 2);
    const after = a.acquireKeys(['invoice:1'], never()).then((r) => (order.push('a'), r));
    await placed(a, 2);
    two();
    one();
    (await next)();
    (await after)();
    expect(order).toEqual(['b', 'a']);
    expect(one.keys).toEqual([{ key: 'invoice:1', fencingToken: one.fencingToken }]);
    await drained(key);
  });

  it('an app-wide grant waits for the keyed ones in flight on every instance, and keyed ones after it wait for it', async () => {
    const key = `rw-${prefix++}`;
    const [a, b] = [await instance(key), await instance(key)];
    const keyed = await a.acquireKeys(['k'], never());
    const events: string[] = [];
    const app = b.acquire(never()).then((r) => (events.push('app'), r));
    await placed(b, 1);
    const later = a.acquireKeys(['other'], never()).then((r) => (events.push('other'), r));
    await placed(a, 2);
    expect(events).toEqual([]);
    keyed();
    const appRelease = await app;
    expect(events).toEqual(['app']);
    appRelease();
    (await later)();
    expect(events).toEqual(['app', 'other']);
    await drained(key);
  });

  it('a hand-off wakes exactly one waiter: two scripts per mutation, 32 waiters over two instances, no retries', async () => {
    const key = `storm-${prefix++}`;
    // Polls far apart, so every command counted is an acquisition or a release.
    const [a, b] = [await instance(key, { leaseMs: 60_000, pollMs: 20_000 }), await instance(key, { leaseMs: 60_000, pollMs: 20_000 })];
    const first = await a.acquireKeys(['hot'], never());
    const grants: Array<Promise<LockRelease>> = [];
    for (let i = 0; i < 32; i++) {
      const lock = i % 2 === 0 ? a : b;
      const before = lock.placements;
      grants.push(lock.acquireKeys(['hot'], never()));
      await placed(lock, before + 1);
    }
    const commandsBefore = a.commands + b.commands;
    first();
    for (const grant of grants) (await grant)();
    // One release per holder (33), nothing else: the waiters were handed the lock, they did not ask again.
    expect(a.commands + b.commands - commandsBefore).toBe(33);
    await drained(key);
  });

  it('a release hands the line to the next in line of its own instance at once, with the token Redis grants it; FIFO across instances', async () => {
    const key = `hand-on-${prefix++}`;
    // Polls far apart: every grant below comes from a release (handed on, or a grant message).
    const [a, b] = [await instance(key, { leaseMs: 60_000, pollMs: 20_000 }), await instance(key, { leaseMs: 60_000, pollMs: 20_000 })];
    // An app-wide grant of this lock carries its fencing token too (the MutationLock type does not say so).
    const holder = (await a.acquire(never())) as LockRelease;
    const order: string[] = [];
    const inLine = (lock: RedisMutationLock, name: string) => lock.acquire(never()).then((r) => (order.push(name), r as LockRelease));
    // a1 joins at the head (its acquire's reply names it, with its token); b1 and b2 queue behind it.
    const a1 = inLine(a, 'a1');
    await placed(a, 2);
    const b1 = inLine(b, 'b1');
    await placed(b, 1);
    const b2 = inLine(b, 'b2');
    await placed(b, 2);
    // The release hands a1 the line and returns a promise: the releasing call goes on a turn later,
    // after a1's critical section has started.
    const after = holder();
    expect(after).toBeInstanceOf(Promise);
    const first = await Promise.race([a1, after!.then(() => 'the releasing call went first')]);
    if (typeof first === 'string') throw new Error(first);
    expect(a.handedOn).toBe(1);
    expect(first.fencingToken).toBeGreaterThan(holder.fencingToken!);
    // Redis, running the release, granted a1 too, with that same token.
    while (!(await probe.client.hVals(`{${key}}:tokens`)).includes(String(first.fencingToken))) await turn();
    // Nothing of a's own is next (b1 is): the release still makes the call wait a turn, so that it reaches Redis first.
    expect(first()).toBeInstanceOf(Promise);
    // b1 by its grant message. b2 joined right behind b1 (its acquire's reply said so): b hands it on when b1 releases.
    const second = await b1;
    expect(b.handedOn).toBe(0);
    // b1's release hands on to b2 (of its own instance); a second call of a release does nothing.
    expect(second()).toBeInstanceOf(Promise);
    expect(second()).toBeUndefined();
    const third = await b2;
    expect(b.handedOn).toBe(1);
    third();
    expect(order).toEqual(['a1', 'b1', 'b2']);
    expect(second.fencingToken).toBeGreaterThan(first.fencingToken!);
    expect(third.fencingToken).toBeGreaterThan(second.fencingToken!);
    await drained(key);
  });

  it('runs its scripts by SHA-1, and sends a script again when Redis has lost it (SCRIPT FLUSH, a restart)', async () => {
    const key = `flush-${prefix++}`;
    const a = await instance(key);
    (await a.acquireKeys(['k'], never()))();
    await probe.client.scriptFlush();
    const grant = await a.acquireKeys(['k'], never());
    expect(grant.keys).toEqual([{ key: 'k', fencingToken: grant.fencingToken }]);
    grant();
    await drained(key);
  });

  it('an aborted waiter gives back the keys it held and leaves; nothing stays in Redis', async () => {
    const key = `abort-${prefix++}`;
    const [a, b] = [await instance(key), await instance(key)];
    const holdsB = await a.acquireKeys(['b'], never());
    const leaving = new AbortController();
    const doomed = b.acquireKeys(['a', 'b'], leaving.signal);
    await placed(b, 1);
    const next = a.acquireKeys(['a'], never());
    await placed(a, 2);
    leaving.abort();
    await expect(doomed).rejects.toThrow();
    (await next)();
    holdsB();
    await drained(key);
  });

  it('a multi-key waiter keeps the keys it holds while it waits longer than their lease', async () => {
    const key = `long-wait-${prefix++}`;
    // A lease long enough that a worker starved for a second (CI runs suites side by side) still
    // renews it in time; the wait below outlasts it all the same.
    const options = { leaseMs: 1500, pollMs: 50 };
    const [a, b, c] = [await instance(key, options), await instance(key, options), await instance(key, options)];
    const holdsB = await a.acquireKeys(['b'], never());
    const order: string[] = [];
    // Holds the app (shared) and `a`, waits for `b`.
    const both = b.acquireKeys(['a', 'b'], never()).then((r) => (order.push('both'), r));
    await placed(b, 1);
    const onlyA = c.acquireKeys(['a'], never()).then((r) => (order.push('only a'), r));
    await placed(c, 1);
    // Polls of the waiter, each 50 ms apart: well past its 1500 ms lease.
    const polled = b.commands + 45;
    while (b.commands < polled) await turn();
    expect(order).toEqual([]);
    holdsB();
    (await both)();
    (await onlyA)();
    expect(order).toEqual(['both', 'only a']);
    await drained(key);
  });

  it('a holder of a key that dies frees the key when its lease runs out; the waiter is served', async () => {
    const key = `crash-${prefix++}`;
    const dead = await connectRedis(redis.url);
    const doomed = new RedisMutationLock(dead, { key, leaseMs: 300, pollMs: 50 });
    const grant = await doomed.acquireKeys(['k'], never());
    await dead.close();
    const survivor = await instance(key, { leaseMs: 300, pollMs: 50 });
    const release = await survivor.acquireKeys(['k'], never());
    expect(release.fencingToken).toBeGreaterThan(grant.fencingToken!);
    release();
    await drained(key);
  });

  it('tokens keep growing when the counter is lost (a Redis restarted without persistence): it starts again from the clock', async () => {
    const key = `restart-${prefix++}`;
    const lock = await instance(key);
    const first = await lock.acquireKeys(['k'], never());
    first();
    await drained(key);
    await probe.client.del(`{${key}}:fence`);
    const second = await lock.acquireKeys(['k'], never());
    second();
    expect(second.fencingToken).toBeGreaterThan(first.fencingToken!);
    expect(Number.isSafeInteger(second.fencingToken)).toBe(true);
    await drained(key);
  });

  it('random acquire/abort/release interleavings over several keys, two processes: one holder per key, FIFO, nobody stranded, no deadlock, nothing left (fast-check, seeded)', async () => {
    const child = fork(CHILD, [redis.url, 'model'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      await once(child, 'message');
      await fc.assert(
        fc.asyncProperty(commandsArbitrary(2, 30), async (commands) => {
          const key = `model-${prefix++}`;
          await runModel(await twoProcesses(key, child), commands, () => turn().then(() => undefined));
        }),
        { seed: MODEL_SEED, numRuns: 60 }
      );
    } finally {
      child.send({ op: 'exit' });
      if (child.exitCode === null) await once(child, 'exit');
    }
  }, 120_000);
});

/** The lock under test: instance 0 in this process, instance 1 in the child (told its key per run). */
async function twoProcesses(key: string, child: ChildProcess): Promise<LockUnderTest> {
  const local = await instance(key, { pollMs: 200 });
  const remote = new Map<number, { granted: (release: () => void) => void; failed: (e: unknown) => void; placed: () => void }>();
  const listener = (raw: unknown): void => {
    const message = raw as { n: number; event: string; error?: string };
    const handlers = remote.get(message.n);
    if (!handlers) return;
    if (message.event === 'placed') handlers.placed();
    else if (message.event === 'granted') handlers.granted(() => child.send({ op: 'release', n: message.n }));
    else if (message.event === 'failed') handlers.failed(new Error(message.error));
  };
  child.on('message', listener);
  child.send({ op: 'key', key });
  return {
    acquire: async (which, keys, signal, granted, failed) => {
      if (which === 0) {
        const before = local.placements;
        let settled = false;
        (keys.length === 0 ? local.acquire(signal) : local.acquireKeys(keys, signal)).then(
          (release) => ((settled = true), granted(release)),
          (error: unknown) => ((settled = true), failed(error))
        );
        while (!settled && local.placements === before) await turn();
        return;
      }
      const id = remoteIds++;
      await new Promise<void>((resolve) => {
        remote.set(id, { granted, failed, placed: resolve });
        signal.addEventListener('abort', () => child.send({ op: 'abort', n: id }), { once: true });
        child.send({ op: 'acquire', n: id, keys });
      });
    },
    idle: async () => {
      await drained(key);
      child.off('message', listener);
    }
  };
}
