import { Ctx, FusionApp, Mutation, ToolProvider, type CallContext } from '../../src';
import { connectRedis, LockUnavailableError, RedisMutationLock, type RedisConnection } from '../../src/redis';
import { startRedis, type RedisServer, describeWithRedis } from '../helpers/redis-server';

/**
 * The fleet-wide mutation lock against a real redis-server: each lock on its own connection
 * stands for one instance of a fleet.
 */
let redis: RedisServer;
const connections: RedisConnection[] = [];
let prefix = 0;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await redis.stop();
});

async function instance(key: string, leaseMs = 5_000): Promise<RedisMutationLock> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  return new RedisMutationLock(connection, { key, leaseMs, pollMs: 50 });
}

/** Resolves once `lock` has `count` waiters of its own in line (the test sees its queue through Redis). */
async function queued(connection: RedisConnection, key: string, count: number): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if ((await connection.client.lLen(`{${key}}:queue`)) >= count) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`the line never reached ${count}`);
}

describeWithRedis('RedisMutationLock', () => {
  it('serves waiters of several instances in arrival order, with growing fencing tokens', async () => {
    const key = `fifo-${prefix++}`;
    const [a, b] = [await instance(key), await instance(key)];
    const first = (await a.acquire(new AbortController().signal)) as (() => void) & { fencingToken: number };
    const order: string[] = [];
    const waiting: Array<Promise<void>> = [];
    for (const [name, lock] of [
      ['b1', b],
      ['a2', a],
      ['b2', b]
    ] as const) {
      waiting.push(
        lock.acquire(new AbortController().signal).then((release) => {
          order.push(`${name}:${(release as unknown as { fencingToken: number }).fencingToken}`);
          release();
        })
      );
      await queued(connections[0], key, waiting.length);
    }
    first();
    await Promise.all(waiting);
    expect(order.map((o) => o.split(':')[0])).toEqual(['b1', 'a2', 'b2']);
    const tokens = [first.fencingToken, ...order.map((o) => Number(o.split(':')[1]))];
    expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
    expect(new Set(tokens).size).toBe(4);
  });

  it('an aborted waiter leaves the line at once; the next one is served when the holder releases', async () => {
    const key = `abort-${prefix++}`;
    const [a, b] = [await instance(key), await instance(key)];
    const held = await a.acquire(new AbortController().signal);
    const controller = new AbortController();
    const leaving = b.acquire(controller.signal);
    await queued(connections[0], key, 1);
    const next = a.acquire(new AbortController().signal);
    await queued(connections[0], key, 2);
    controller.abort(new Error('client went away'));
    await expect(leaving).rejects.toThrow();
    held();
    const release = await next;
    release();
  });

  it('a holder that dies (stops renewing) frees the lock when its lease runs out', async () => {
    const key = `crash-${prefix++}`;
    const dead = await connectRedis(redis.url);
    const doomed = new RedisMutationLock(dead, { key, leaseMs: 300, pollMs: 50 });
    const grant = (await doomed.acquire(new AbortController().signal)) as unknown as { fencingToken: number };
    await dead.close(); // the process is gone: no release, no renewal
    const survivor = await instance(key, 300);
    const release = (await survivor.acquire(new AbortController().signal)) as (() => void) & { fencingToken: number };
    expect(release.fencingToken).toBeGreaterThan(grant.fencingToken);
    release();
  });

  it('two apps sharing the lock never run mutations at once; ctx.lock carries the fencing token', async () => {
    const key = `apps-${prefix++}`;
    let running = 0;
    let overlaps = 0;
    const tokens: number[] = [];
    @ToolProvider()
    class Writes {
      @Mutation('ledger.write', { description: 'Writes under the fleet lock' })
      async write(@Ctx() ctx: CallContext) {
        running++;
        if (running > 1) overlaps++;
        tokens.push(ctx.lock!.fencingToken);
        await new Promise((resolve) => setTimeout(resolve, 2));
        running--;
        return 'written';
      }
    }
    const apps = [
      FusionApp.create({ tools: [Writes], mutationLock: await instance(key), logger: () => undefined }),
      FusionApp.create({ tools: [Writes], mutationLock: await instance(key), logger: () => undefined })
    ];
    try {
      const results = await Promise.all(Array.from({ length: 16 }, (_, i) => apps[i % 2].callTool('ledger.write', {})));
      expect(results.every((r) => !r.isError)).toBe(true);
      expect(overlaps).toBe(0);
      expect(new Set(tokens).size).toBe(16);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it('an abort in the turn after the mutation ran does not turn it into a cancelled call (the release lets the next holder go first)', async () => {
    const key = `after-${prefix++}`;
    const lock = await instance(key);
    const leaving = new AbortController();
    let writes = 0;
    @ToolProvider()
    class Late {
      @Mutation('late.write', { description: 'Writes; its caller aborts just after' })
      write() {
        writes++;
        // The abort lands in the turn the release makes the call wait.
        setImmediate(() => leaving.abort());
        return 'written';
      }
    }
    const app = FusionApp.create({ tools: [Late], mutationLock: lock, logger: () => undefined });
    try {
      const result = await app.callTool('late.write', {}, { signal: leaving.signal });
      expect(leaving.signal.aborted).toBe(true);
      expect(writes).toBe(1);
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'written' }]);
    } finally {
      await app.close();
    }
  });

  it('Redis going away: a mutation fails with a clear error and nothing runs; it works again once Redis is back', async () => {
    const key = `outage-${prefix++}`;
    const lock = await instance(key);
    let ran = 0;
    @ToolProvider()
    class Outage {
      @Mutation('outage.write', { description: 'Needs the lock' })
      write() {
        ran++;
        return 'ok';
      }
    }
    const app = FusionApp.create({ tools: [Outage], mutationLock: lock, logger: () => undefined });
    try {
      expect((await app.callTool('outage.write', {})).isError).toBeFalsy();
      await redis.stop();
      const failed = await app.callTool('outage.write', {});
      expect(failed.isError).toBe(true);
      expect((failed.content as Array<{ text: string }>)[0].text).toMatch(
        /The mutation lock is unavailable \(Redis: .*\); nothing was changed/
      );
      expect(ran).toBe(1);
      const connection = connections[connections.length - 1];
      const ready = new Promise((resolve) => connection.client.once('ready', resolve));
      await redis.start();
      await ready; // the client reconnects by itself, with its backoff
      const again = await app.callTool('outage.write', {});
      expect(again.isError).toBeFalsy();
      expect(ran).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('an unreachable Redis at startup is a clear error', async () => {
    await expect(connectRedis('redis://127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.toThrow(
      /Redis at redis:\/\/127\.0\.0\.1:1\/? is unreachable/
    );
    expect(LockUnavailableError).toBeDefined();
  });
});
