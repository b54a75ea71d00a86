import { getEventListeners, setMaxListeners } from 'node:events';
import { abortErrorOf } from '../../../src/concurrency/abort';
import { CallAbort } from '../../../src/concurrency/call-abort';
import { AppClosedError, CancelledError, FusionError, TimeoutError } from '../../../src/errors';

/** Lets settled promises' reactions and Node's unhandled-rejection pass run (no delay). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/** A promise settled only by the test. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A race whose outcome can be inspected synchronously after a turn. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { value, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true })
  );
  return state;
}

/** Waiters registered on a call: its single slot plus its set (undefined when it holds neither). */
const waitersOf = (aborter: CallAbort): number | undefined => {
  const { waiter, waiters } = aborter as any;
  if (waiter === undefined && waiters === undefined) return undefined;
  return (waiter === undefined ? 0 : 1) + (waiters?.size ?? 0);
};

/**
 * Runs `body`, then lets Node report any unhandled rejection while this test still runs: jest
 * (circus) fails the running test on a process 'unhandledRejection' (checked with a deliberately
 * unhandled `Promise.reject`). A listener added here would not see it: jest's sandboxed `process`
 * does not reach the real one.
 */
async function withoutUnhandledRejection(body: () => Promise<void>): Promise<void> {
  await body();
  await turn();
  await turn();
}

describe('abortErrorOf', () => {
  it('passes framework errors as they are and wraps any other reason in a CancelledError', () => {
    const timeout = new TimeoutError('slow', 10);
    expect(abortErrorOf(timeout)).toBe(timeout);
    const wrapped = abortErrorOf('bye');
    expect(wrapped).toBeInstanceOf(CancelledError);
    expect((wrapped as CancelledError).cause).toBe('bye');
  });
});

describe('CallAbort without an upstream', () => {
  it('starts not aborted, with no reason', () => {
    const aborter = new CallAbort();
    expect(aborter.aborted).toBe(false);
    expect(aborter.reason).toBeUndefined();
    expect(aborter.signal.aborted).toBe(false);
  });

  it('abort(reason) sets aborted and reason', () => {
    const aborter = new CallAbort();
    const reason = new AppClosedError();
    aborter.abort(reason);
    expect(aborter.aborted).toBe(true);
    expect(aborter.reason).toBe(reason);
    expect(aborter.error()).toBe(reason);
  });

  it('ignores a second abort: the first reason wins', () => {
    const aborter = new CallAbort();
    const first = new TimeoutError('slow', 10);
    aborter.abort(first);
    aborter.abort(new AppClosedError());
    aborter.abort('later');
    expect(aborter.reason).toBe(first);
    expect(aborter.signal.reason).toBe(first);
  });

  it('counts abort(undefined) as an abort: a later reason is still ignored', () => {
    const aborter = new CallAbort();
    aborter.abort(undefined);
    aborter.abort('later');
    expect(aborter.aborted).toBe(true);
    expect(aborter.reason).toBeUndefined();
    expect(aborter.signal.aborted).toBe(true);
    expect(aborter.error()).toBeInstanceOf(CancelledError);
  });
});

describe('CallAbort following an upstream signal', () => {
  it('is aborted at once when the upstream is already aborted, as a cancellation caused by its reason', () => {
    const upstream = new AbortController();
    const upstreamReason = new Error('client gave up');
    upstream.abort(upstreamReason);
    const aborter = new CallAbort(upstream.signal);
    expect(aborter.aborted).toBe(true);
    expect(aborter.reason).toBeInstanceOf(CancelledError);
    expect((aborter.reason as CancelledError).cause).toBe(upstreamReason);
    expect(abortListeners(upstream.signal)).toBe(0);
  });

  it('reads the upstream at every check within its first turn, without listening to it', () => {
    const upstream = new AbortController();
    const aborter = new CallAbort(upstream.signal);
    expect(aborter.aborted).toBe(false);
    expect(abortListeners(upstream.signal)).toBe(0);
    upstream.abort('disconnected');
    expect(aborter.aborted).toBe(true);
    expect((aborter.reason as CancelledError).cause).toBe('disconnected');
  });

  it('listens from its second turn on: aborted when the upstream aborts later, as a cancellation caused by its reason', async () => {
    const upstream = new AbortController();
    const aborter = new CallAbort(upstream.signal);
    await turn();
    expect(aborter.aborted).toBe(false);
    expect(abortListeners(upstream.signal)).toBe(1);
    upstream.abort('disconnected');
    expect(aborter.aborted).toBe(true);
    expect(aborter.reason).toBeInstanceOf(CancelledError);
    expect((aborter.reason as CancelledError).cause).toBe('disconnected');
    expect(aborter.signal.reason).toBe(aborter.reason);
    expect(abortListeners(upstream.signal)).toBe(0);
  });

  it('aborts a signal already read when the upstream aborts (within one turn when it was not listening yet)', async () => {
    const upstream = new AbortController();
    const aborter = new CallAbort(upstream.signal);
    const signal = aborter.signal;
    const onAbort = jest.fn();
    signal.addEventListener('abort', onAbort);
    upstream.abort();
    await turn();
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(CancelledError);
    expect((signal.reason as CancelledError).cause).toBe(upstream.signal.reason);
    expect(onAbort).toHaveBeenCalledTimes(1);
  });

  it('after detach(), an upstream abort no longer aborts it', () => {
    const upstream = new AbortController();
    const aborter = new CallAbort(upstream.signal);
    const signal = aborter.signal;
    aborter.detach();
    upstream.abort('too late');
    expect(aborter.aborted).toBe(false);
    expect(aborter.reason).toBeUndefined();
    expect(signal.aborted).toBe(false);
  });

  it('detach() removes its listener: many calls on one signal retain nothing', async () => {
    const upstream = new AbortController();
    setMaxListeners(2000, upstream.signal);
    const aborters = Array.from({ length: 1000 }, () => new CallAbort(upstream.signal));
    await turn();
    expect(abortListeners(upstream.signal)).toBe(1000);
    for (const aborter of aborters) aborter.detach();
    expect(abortListeners(upstream.signal)).toBe(0);
    for (let i = 0; i < 1000; i++) new CallAbort(upstream.signal).detach();
    await turn();
    expect(abortListeners(upstream.signal)).toBe(0);
    upstream.abort();
    expect(aborters.some((aborter) => aborter.aborted)).toBe(false);
  });

  it('detach() is idempotent and harmless without an upstream', async () => {
    const upstream = new AbortController();
    const other = new CallAbort(upstream.signal);
    const aborter = new CallAbort(upstream.signal);
    aborter.detach();
    aborter.detach();
    new CallAbort().detach();
    await turn();
    expect(abortListeners(upstream.signal)).toBe(1);
    upstream.abort();
    expect(other.aborted).toBe(true);
    expect(aborter.aborted).toBe(false);
  });

  it('an own abort removes the upstream listener, and a later upstream abort changes nothing', async () => {
    const upstream = new AbortController();
    const aborter = new CallAbort(upstream.signal);
    await turn();
    expect(abortListeners(upstream.signal)).toBe(1);
    const reason = new TimeoutError('slow', 10);
    aborter.abort(reason);
    expect(abortListeners(upstream.signal)).toBe(0);
    upstream.abort('client');
    expect(aborter.reason).toBe(reason);
  });
});

describe('CallAbort lazy signal', () => {
  it('returns the same AbortSignal on every read', () => {
    const aborter = new CallAbort();
    const signal = aborter.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(aborter.signal).toBe(signal);
  });

  it('a signal first read after the abort is already aborted with the same reason', () => {
    const aborter = new CallAbort();
    const reason = new AppClosedError();
    aborter.abort(reason);
    const signal = aborter.signal;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(aborter.signal).toBe(signal);
  });

  it('a signal first read after an abort with a plain reason carries that reason', () => {
    const aborter = new CallAbort();
    aborter.abort('plain');
    expect(aborter.signal.aborted).toBe(true);
    expect(aborter.signal.reason).toBe('plain');
  });

  it('a signal read before the abort is aborted with the reason (a FusionError as it is)', () => {
    const aborter = new CallAbort();
    const signal = aborter.signal;
    const onAbort = jest.fn();
    signal.addEventListener('abort', onAbort);
    expect(signal.aborted).toBe(false);
    const reason = new TimeoutError('slow', 10);
    aborter.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(signal.reason).toBeInstanceOf(FusionError);
    expect(onAbort).toHaveBeenCalledTimes(1);
    aborter.abort(new AppClosedError());
    expect(signal.reason).toBe(reason);
    expect(onAbort).toHaveBeenCalledTimes(1);
  });
});

describe('CallAbort.race', () => {
  it('resolves with the promise value', async () => {
    const aborter = new CallAbort();
    const d = deferred<number>();
    const raced = aborter.race(d.promise);
    d.resolve(42);
    await expect(raced).resolves.toBe(42);
    expect(aborter.aborted).toBe(false);
  });

  it("rejects with the promise's error", async () => {
    const aborter = new CallAbort();
    const d = deferred<number>();
    const raced = aborter.race(d.promise);
    const error = new Error('boom');
    d.reject(error);
    await expect(raced).rejects.toBe(error);
  });

  it('stays pending while neither the promise settles nor the call aborts', async () => {
    const aborter = new CallAbort();
    const state = track(aborter.race(deferred<number>().promise));
    await turn();
    expect(state.settled).toBe(false);
    expect(waitersOf(aborter)).toBe(1);
  });

  it('rejects with a FusionError reason unchanged when aborted while pending, though the promise never settles', async () => {
    const aborter = new CallAbort();
    const raced = aborter.race(new Promise<number>(() => undefined));
    const reason = new TimeoutError('slow', 10);
    aborter.abort(reason);
    await expect(raced).rejects.toBe(reason);
  });

  it('rejects with a CancelledError wrapping any other reason when aborted while pending', async () => {
    const aborter = new CallAbort();
    const raced = aborter.race(new Promise<number>(() => undefined));
    const reason = new Error('plain');
    aborter.abort(reason);
    const error = await raced.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe(reason);
  });

  it('rejects with the cancellation when the upstream aborts while pending', async () => {
    const upstream = new AbortController();
    const aborter = new CallAbort(upstream.signal);
    const raced = aborter.race(new Promise<number>(() => undefined));
    upstream.abort('client');
    const error = await raced.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).toBe(aborter.reason);
    expect((error as CancelledError).cause).toBe('client');
  });

  it('ignores the promise settling after the abort rejected the race', async () => {
    const aborter = new CallAbort();
    const d = deferred<number>();
    const state = track(aborter.race(d.promise));
    const reason = new AppClosedError();
    aborter.abort(reason);
    d.resolve(1);
    await turn();
    expect(state).toEqual({ settled: true, error: reason });
  });

  it('rejects at once when already aborted, and a later rejection of the raced promise is not unhandled', async () => {
    const aborter = new CallAbort();
    const reason = new AppClosedError();
    aborter.abort(reason);
    await withoutUnhandledRejection(async () => {
      const d = deferred<number>();
      const state = track(aborter.race(d.promise));
      await Promise.resolve();
      expect(state).toEqual({ settled: true, error: reason });
      d.reject(new Error('late failure'));
    });
    expect(waitersOf(aborter)).toBeUndefined();
  });

  it('rejects at once with a CancelledError when already aborted with a plain reason', async () => {
    const aborter = new CallAbort();
    aborter.abort('plain');
    const error = await aborter.race(Promise.resolve(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe('plain');
  });

  it('a rejection of the raced promise after an abort while pending is not unhandled', async () => {
    const aborter = new CallAbort();
    await withoutUnhandledRejection(async () => {
      const d = deferred<number>();
      const raced = aborter.race(d.promise);
      aborter.abort(new AppClosedError());
      await expect(raced).rejects.toBeInstanceOf(AppClosedError);
      d.reject(new Error('late failure'));
    });
  });

  it('leaves no waiter once races settle', async () => {
    const aborter = new CallAbort();
    const resolved = Array.from({ length: 500 }, () => deferred<number>());
    const rejected = Array.from({ length: 500 }, () => deferred<number>());
    const races = [...resolved, ...rejected].map((d) => aborter.race(d.promise).catch((e: unknown) => e));
    expect(waitersOf(aborter)).toBe(1000);
    resolved.forEach((d, i) => d.resolve(i));
    rejected.forEach((d) => d.reject(new Error('no')));
    const results = await Promise.all(races);
    expect(results.slice(0, 500)).toEqual(resolved.map((_d, i) => i));
    expect(results.slice(500).every((r) => r instanceof Error && r.message === 'no')).toBe(true);
    expect(waitersOf(aborter) ?? 0).toBe(0);
    expect(aborter.aborted).toBe(false);
  });

  it('abort while several races are pending rejects all of them with the same error', async () => {
    const aborter = new CallAbort();
    const settledFirst = deferred<string>();
    const early = aborter.race(settledFirst.promise);
    const pending = Array.from({ length: 5 }, () => aborter.race(new Promise<number>(() => undefined)));
    settledFirst.resolve('done');
    await expect(early).resolves.toBe('done');
    expect(waitersOf(aborter)).toBe(5);
    const reason = new TimeoutError('slow', 10);
    aborter.abort(reason);
    const errors = await Promise.all(pending.map((p) => p.catch((e: unknown) => e)));
    expect(errors).toHaveLength(5);
    for (const error of errors) expect(error).toBe(reason);
    expect(waitersOf(aborter) ?? 0).toBe(0);
  });

  it('abort with a plain reason rejects every pending race with one CancelledError', async () => {
    const aborter = new CallAbort();
    const pending = Array.from({ length: 3 }, () => aborter.race(new Promise<number>(() => undefined)));
    aborter.abort('shutdown');
    const errors = await Promise.all(pending.map((p) => p.catch((e: unknown) => e)));
    expect(errors[0]).toBeInstanceOf(CancelledError);
    expect((errors[0] as CancelledError).cause).toBe('shutdown');
    expect(errors[1]).toBe(errors[0]);
    expect(errors[2]).toBe(errors[0]);
  });
});
