import { getEventListeners } from 'node:events';
import { CallAbort } from '../../../src/concurrency/call-abort';
import { InProcessCallQueue, type CallQueue } from '../../../src/concurrency/call-queue';
import type { Release } from '../../../src/concurrency/slot-gate';
import { FifoMutex, type LockRelease, type MutationLock } from '../../../src/concurrency/fifo-mutex';
import { keysTake, lockTake, queueTake } from '../../../src/concurrency/slot-takers';
import { CancelledError, ServerBusyError, TimeoutError } from '../../../src/errors';

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/** Whether the call made its AbortSignal (the engine's own queue and lock never need one). */
const madeSignal = (call: CallAbort): boolean => (call as unknown as { controller?: AbortController }).controller !== undefined;

describe('The slot source of a step, chosen once when the chain is built', () => {
  it("the framework's queue gives a free slot at once, with no promise and no signal made", () => {
    const take = queueTake(new InProcessCallQueue({ maxActive: 1 }));
    const call = new CallAbort();
    const release = take(call);
    expect(typeof release).toBe('function');
    expect(madeSignal(call)).toBe(false);
    (release as Release)();
  });

  it("a waiting call waits on its own abort: aborted, it leaves the queue at once with the call's error, no signal made", async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 4 });
    const take = queueTake(queue);
    const held = take(new CallAbort()) as Release;
    const call = new CallAbort();
    const waiting = take(call);
    expect(waiting).toBeInstanceOf(Promise);
    expect(queue.waiting).toBe(1);
    const reason = new TimeoutError('slow', 5);
    call.abort(reason);
    expect(queue.waiting).toBe(0);
    await expect(waiting).rejects.toBe(reason);
    expect(madeSignal(call)).toBe(false);
    held();
    expect(queue.active).toBe(0);
  });

  it('a full queue refuses the call with ServerBusyError', async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 0 });
    const take = queueTake(queue);
    const held = take(new CallAbort()) as Release;
    await expect(take(new CallAbort())).rejects.toBeInstanceOf(ServerBusyError);
    held();
  });

  it("a queue of the user's own is asked with the call's signal, which aborts with the call", async () => {
    const signals: AbortSignal[] = [];
    const own: CallQueue = {
      acquire: (signal) => {
        signals.push(signal);
        return new Promise<Release>(() => undefined);
      },
      active: 0,
      waiting: 0
    };
    const call = new CallAbort();
    void queueTake(own)(call);
    expect(signals).toEqual([call.signal]);
    call.abort('stop');
    expect(signals[0].aborted).toBe(true);
  });

  it("the framework's lock takes the app at once when free; the grant carries its fencing token", () => {
    const mutex = new FifoMutex();
    const release = lockTake(mutex)(new CallAbort()) as LockRelease;
    expect(typeof release).toBe('function');
    expect(typeof release.fencingToken).toBe('number');
    expect(mutex.locked).toBe(true);
    release();
    expect(mutex.locked).toBe(false);
  });

  it('keys: the framework lock holds them at once; a lock without keyed methods is held app-wide; one with them gets the keys', async () => {
    const mutex = new FifoMutex();
    const keyed = keysTake(mutex)(['a', 'b'], new CallAbort()) as LockRelease;
    expect(keyed.keys!.map((k) => k.key)).toEqual(['a', 'b']);
    keyed();
    const calls: string[] = [];
    const appWideOnly: MutationLock = {
      acquire: (signal) => (calls.push('acquire'), mutex.acquire(signal)),
      locked: false
    };
    const release = await keysTake(appWideOnly)(['k'], new CallAbort());
    expect(calls).toEqual(['acquire']);
    expect(release.keys).toEqual([]);
    release();
    const withKeys: MutationLock = {
      acquire: () => Promise.reject(new Error('not app-wide')),
      acquireKeys: (keys, signal) => (calls.push(`keys ${keys.join(',')}`), mutex.acquireKeys(keys, signal)),
      locked: false
    };
    (await keysTake(withKeys)(['x', 'y'], new CallAbort()))();
    expect(calls).toEqual(['acquire', 'keys x,y']);
  });
});

describe('CallAbort.following: the public acquire(signal) forms wait as the engine does', () => {
  it('listens to the signal only while a waiter waits, and ends with the reason itself when it is a framework error', async () => {
    const mutex = new FifoMutex();
    const held = await mutex.acquire(new AbortController().signal);
    const controller = new AbortController();
    const waiting = mutex.acquire(controller.signal);
    expect(abortListeners(controller.signal)).toBe(1);
    const reason = new TimeoutError('slow', 5);
    controller.abort(reason);
    expect(mutex.waiting).toBe(0);
    await expect(waiting).rejects.toBe(reason);
    expect(abortListeners(controller.signal)).toBe(0);
    held();
  });

  it('an uncontended acquire adds no listener; a granted waiter leaves none behind', async () => {
    const mutex = new FifoMutex();
    const controller = new AbortController();
    const first = await mutex.acquire(controller.signal);
    expect(abortListeners(controller.signal)).toBe(0);
    const second = mutex.acquire(controller.signal);
    expect(abortListeners(controller.signal)).toBe(1);
    first();
    expect(abortListeners(controller.signal)).toBe(0);
    (await second)();
  });

  it('a wait over several keys listens again for each line, and an abort between them gives back what it held', async () => {
    const mutex = new FifoMutex();
    const holdsB = await mutex.acquireKeys(['b'], new AbortController().signal);
    const controller = new AbortController();
    const waiting = mutex.acquireKeys(['a', 'b'], controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(abortListeners(controller.signal)).toBe(1);
    controller.abort('gave up');
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('gave up');
    holdsB();
    expect(mutex.locked).toBe(false);
    expect(mutex.keyCount).toBe(0);
  });
});
