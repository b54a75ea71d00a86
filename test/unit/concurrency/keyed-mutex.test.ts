import fc from 'fast-check';
import { CancelledError, FifoMutex, type LockRelease } from '../../../src/advanced';
import { commandsArbitrary, MODEL_SEED, runModel, type LockUnderTest } from '../../helpers/lock-model';

const never = (): AbortSignal => new AbortController().signal;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FifoMutex, keyed', () => {
  it('runs disjoint keys at once, keeps one key in arrival order, and forgets a key nobody holds', async () => {
    const mutex = new FifoMutex();
    const a1 = mutex.tryAcquireKeys(['invoice:1'])!;
    const b = mutex.tryAcquireKeys(['invoice:2']);
    expect(b).toBeDefined();
    expect(mutex.tryAcquireKeys(['invoice:1'])).toBeUndefined();
    const order: string[] = [];
    const a2 = mutex.acquireKeys(['invoice:1'], never()).then((r) => (order.push('a2'), r));
    const a3 = mutex.acquireKeys(['invoice:1'], never()).then((r) => (order.push('a3'), r));
    expect(mutex.keyCount).toBe(2);
    b!();
    expect(mutex.keyCount).toBe(1);
    a1();
    (await a2)();
    (await a3)();
    expect(order).toEqual(['a2', 'a3']);
    expect(mutex.keyCount).toBe(0);
    expect(mutex.locked).toBe(false);
  });

  it('an app-wide grant waits for the keyed ones in flight and excludes those that come after it', async () => {
    const mutex = new FifoMutex();
    const keyed = mutex.tryAcquireKeys(['k'])!;
    const events: string[] = [];
    const app = mutex.acquire(never()).then((r) => (events.push('app'), r));
    // Arrived after the app-wide waiter: waits for it, although its key is free.
    const later = mutex.acquireKeys(['other'], never()).then((r) => (events.push('other'), r));
    await turn();
    expect(events).toEqual([]);
    keyed();
    const appRelease = await app;
    await turn();
    expect(events).toEqual(['app']);
    appRelease();
    (await later)();
    expect(events).toEqual(['app', 'other']);
  });

  it("gives each key its fencing token, growing, and the grant its first key's", async () => {
    const mutex = new FifoMutex();
    const first = mutex.tryAcquireKeys(['a', 'b'])!;
    expect(first.keys!.map((k) => k.key)).toEqual(['a', 'b']);
    expect(first.fencingToken).toBe(first.keys![0].fencingToken);
    first();
    const second = (await mutex.acquireKeys(['a'], never())) as LockRelease;
    expect(second.keys![0].fencingToken).toBeGreaterThan(first.keys![1].fencingToken);
    second();
  });

  it('tokens start from the clock: a lock made later (a restarted process) hands out larger ones', () => {
    const before = new FifoMutex().tryAcquireKeys(['k'])!;
    // A restart takes longer than the clock's millisecond.
    const started = Date.now();
    while (Date.now() === started) {
      // the next millisecond
    }
    const after = new FifoMutex().tryAcquireKeys(['k'])!;
    expect(after.fencingToken).toBeGreaterThan(before.fencingToken!);
    expect(Number.isSafeInteger(after.fencingToken)).toBe(true);
  });

  it('an aborted waiter leaves at once and gives back the keys it held; the next in line is served', async () => {
    const mutex = new FifoMutex();
    const holdsB = mutex.tryAcquireKeys(['b'])!;
    const leaving = new AbortController();
    // Holds `a`, waits for `b`.
    const doomed = mutex.acquireKeys(['a', 'b'], leaving.signal);
    await turn();
    expect(mutex.tryAcquireKeys(['a'])).toBeUndefined();
    const next = mutex.acquireKeys(['a'], never());
    leaving.abort();
    await expect(doomed).rejects.toBeInstanceOf(CancelledError);
    (await next)();
    holdsB();
    expect(mutex.keyCount).toBe(0);
    expect(mutex.waiting).toBe(0);
  });

  it('random acquire/abort/release interleavings over several keys: one holder per key, FIFO, nobody stranded, no deadlock (fast-check, seeded)', async () => {
    await fc.assert(
      fc.asyncProperty(commandsArbitrary(1, 60), async (commands) => {
        const mutex = new FifoMutex();
        const lock: LockUnderTest = {
          acquire: async (_instance, keys, signal, granted, failed) => {
            const got = keys.length === 0 ? mutex.acquire(signal) : mutex.acquireKeys(keys, signal);
            got.then(granted, failed);
            await turn();
          },
          idle: async () => {
            await turn();
            if (mutex.keyCount !== 0 || mutex.locked || mutex.waiting !== 0)
              throw new Error(`left behind: ${mutex.keyCount} keys, locked ${String(mutex.locked)}, ${mutex.waiting} waiting`);
          }
        };
        await runModel(lock, commands, turn, 1_000);
      }),
      { seed: MODEL_SEED, numRuns: 300 }
    );
  });
});
