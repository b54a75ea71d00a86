import { getEventListeners, setMaxListeners } from 'node:events';
import { InProcessCallQueue } from '../../../src/concurrency/call-queue';
import { SlotGate, type Release } from '../../../src/concurrency/slot-gate';
import { WaiterList } from '../../../src/concurrency/waiter-list';
import { AppClosedError, CancelledError, ServerBusyError, TimeoutError } from '../../../src/errors';

/** Lets settled promises' reactions run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/** A wait whose outcome can be inspected synchronously after a turn. */
function track(promise: Promise<Release>) {
  const state: { release?: Release; error?: unknown; settled: boolean } = { settled: false };
  promise.then(
    (release) => Object.assign(state, { release, settled: true }),
    (error: unknown) => Object.assign(state, { error, settled: true })
  );
  return state;
}

/** A waiter that is its own node in line, named by `value`. */
interface Item {
  readonly value: string | number;
  prev: Item | undefined;
  next: Item | undefined;
  linked: boolean;
}
const item = (value: string | number): Item => ({ value, prev: undefined, next: undefined, linked: false });
const valuesOf = (list: WaiterList<Item>): Array<string | number> => {
  const out: Array<string | number> = [];
  for (let head = list.shift(); head; head = list.shift()) out.push(head.value);
  return out;
};

describe('WaiterList', () => {
  it('is a FIFO: shift returns waiters in push order, then undefined', () => {
    const list = new WaiterList<Item>();
    expect(list.size).toBe(0);
    expect(list.shift()).toBeUndefined();
    for (const v of ['a', 'b', 'c']) list.push(item(v));
    expect(list.size).toBe(3);
    expect(list.peek()?.value).toBe('a');
    expect(valuesOf(list)).toEqual(['a', 'b', 'c']);
    expect(list.shift()).toBeUndefined();
    expect(list.size).toBe(0);
  });

  it.each([
    ['the head', 0, ['b', 'c']],
    ['a middle waiter', 1, ['a', 'c']],
    ['the tail', 2, ['a', 'b']]
  ])('removes %s and keeps the others in order', (_label, index, rest) => {
    const list = new WaiterList<Item>();
    const items = ['a', 'b', 'c'].map(item);
    for (const i of items) list.push(i);
    list.remove(items[index]);
    expect(list.size).toBe(2);
    expect(items[index]).toMatchObject({ linked: false, prev: undefined, next: undefined });
    list.push(item('d'));
    expect(valuesOf(list)).toEqual([...rest, 'd']);
  });

  it('removes the only waiter and can be used again', () => {
    const list = new WaiterList<Item>();
    const one = item(1);
    list.push(one);
    list.remove(one);
    expect(list.size).toBe(0);
    expect(list.shift()).toBeUndefined();
    list.push(item(2));
    list.push(item(3));
    expect(valuesOf(list)).toEqual([2, 3]);
  });

  it('ignores a waiter removed twice, or removed after it was shifted', () => {
    const list = new WaiterList<Item>();
    const [a, b, c] = ['a', 'b', 'c'].map(item);
    list.push(a);
    list.push(b);
    list.push(c);
    list.remove(b);
    list.remove(b);
    expect(list.size).toBe(2);
    expect(list.shift()).toBe(a);
    list.remove(a); // already shifted
    expect(list.size).toBe(1);
    expect(list.shift()).toBe(c);
    expect(list.size).toBe(0);
  });

  it('removes every other waiter of a long list', () => {
    const list = new WaiterList<Item>();
    const items = Array.from({ length: 1000 }, (_, i) => item(i));
    for (const i of items) list.push(i);
    for (const i of items.filter((_, n) => n % 2 === 1)) list.remove(i);
    expect(list.size).toBe(500);
    expect(valuesOf(list)).toEqual(Array.from({ length: 500 }, (_, i) => i * 2));
  });
});

describe('SlotGate: capacity', () => {
  it('grants up to capacity slots with tryAcquire, then refuses with undefined', () => {
    const gate = new SlotGate(2);
    const a = gate.tryAcquire();
    const b = gate.tryAcquire();
    expect(typeof a).toBe('function');
    expect(typeof b).toBe('function');
    expect(gate.inUse).toBe(2);
    expect(gate.tryAcquire()).toBeUndefined();
    expect(gate.inUse).toBe(2);
    expect(gate.waiting).toBe(0);
  });

  it('frees a slot on release, so it can be taken again', () => {
    const gate = new SlotGate(1);
    const release = gate.tryAcquire()!;
    expect(gate.tryAcquire()).toBeUndefined();
    release();
    expect(gate.inUse).toBe(0);
    expect(gate.tryAcquire()).toBeDefined();
    expect(gate.inUse).toBe(1);
  });

  it('releases once however many times a release is called', () => {
    const gate = new SlotGate(2);
    const a = gate.tryAcquire()!;
    gate.tryAcquire();
    a();
    a();
    a();
    expect(gate.inUse).toBe(1);
  });

  it('accepts releases in any order', () => {
    const gate = new SlotGate(3);
    const [a, b, c] = [gate.tryAcquire()!, gate.tryAcquire()!, gate.tryAcquire()!];
    b();
    expect(gate.inUse).toBe(2);
    c();
    expect(gate.inUse).toBe(1);
    a();
    expect(gate.inUse).toBe(0);
  });

  it('never lets inUse go below 0 or above capacity through repeated use', () => {
    const gate = new SlotGate(2);
    for (let i = 0; i < 100; i++) {
      const a = gate.tryAcquire()!;
      const b = gate.tryAcquire()!;
      expect(gate.tryAcquire()).toBeUndefined();
      b();
      a();
      a();
      b();
      expect(gate.inUse).toBe(0);
    }
  });
});

describe('SlotGate: waiting in line', () => {
  it('serves waiters in FIFO order, one per released slot', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const signal = new AbortController().signal;
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) => gate.wait(signal).then((release) => (order.push(n), release)));
    expect(gate.waiting).toBe(3);
    held();
    const r1 = await waits[0];
    expect(order).toEqual([1]);
    expect(gate.waiting).toBe(2);
    r1();
    const r2 = await waits[1];
    r2();
    const r3 = await waits[2];
    expect(order).toEqual([1, 2, 3]);
    r3();
    expect(gate.inUse).toBe(0);
    expect(gate.waiting).toBe(0);
  });

  it('passes a released slot straight to the oldest waiter: inUse is unchanged and nobody can barge in', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const waiter = track(gate.wait(new AbortController().signal));
    held();
    // Synchronously after the release, before the waiter's promise has even settled:
    expect(gate.inUse).toBe(1);
    expect(gate.waiting).toBe(0);
    expect(gate.tryAcquire()).toBeUndefined();
    await turn();
    expect(waiter.settled).toBe(true);
    waiter.release!();
    expect(gate.inUse).toBe(0);
  });

  it('hands over in order whichever held slot is released first', async () => {
    const gate = new SlotGate(2);
    const a = gate.tryAcquire()!;
    const b = gate.tryAcquire()!;
    const signal = new AbortController().signal;
    const w1 = track(gate.wait(signal));
    const w2 = track(gate.wait(signal));
    const w3 = track(gate.wait(signal));
    b();
    await turn();
    expect([w1.settled, w2.settled, w3.settled]).toEqual([true, false, false]);
    w1.release!();
    await turn();
    expect([w2.settled, w3.settled]).toEqual([true, false]);
    a();
    await turn();
    expect(w3.settled).toBe(true);
    expect(gate.inUse).toBe(2);
    w3.release!();
    w2.release!();
    expect(gate.inUse).toBe(0);
  });

  it('a handed-over release is idempotent too, and the stale release of the previous holder does nothing', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const signal = new AbortController().signal;
    const next = gate.wait(signal);
    const after = track(gate.wait(signal));
    held();
    const release = await next;
    held(); // the previous holder releasing again must not free the slot it handed over
    await turn();
    expect(after.settled).toBe(false);
    expect(gate.inUse).toBe(1);
    release();
    release();
    await turn();
    expect(after.settled).toBe(true);
    expect(gate.inUse).toBe(1);
    after.release!();
    expect(gate.inUse).toBe(0);
  });
});

describe('SlotGate: aborted waiters', () => {
  it('rejects at once, without queueing or listening, when the signal is already aborted', async () => {
    const gate = new SlotGate(1);
    gate.tryAcquire();
    const controller = new AbortController();
    controller.abort();
    const waiting = gate.wait(controller.signal);
    expect(gate.waiting).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
  });

  it('leaves the queue at once on abort and rejects with CancelledError carrying the reason', async () => {
    const gate = new SlotGate(1);
    gate.tryAcquire();
    const controller = new AbortController();
    const waiting = gate.wait(controller.signal);
    expect(gate.waiting).toBe(1);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    expect(gate.waiting).toBe(0); // synchronously, before any promise reaction
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).cause).toBe(reason);
  });

  it.each([
    ['TimeoutError', () => new TimeoutError('slow', 10)],
    ['AppClosedError', () => new AppClosedError()]
  ])('rejects with the reason itself when it is a FusionError (%s)', async (_label, make) => {
    const gate = new SlotGate(1);
    gate.tryAcquire();
    const controller = new AbortController();
    const waiting = gate.wait(controller.signal);
    const reason = make();
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('does not take a slot: the released slot goes to the next waiter, order kept', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const live = new AbortController().signal;
    const cancelled = new AbortController();
    const order: string[] = [];
    const first = gate.wait(live).then((r) => (order.push('first'), r));
    const aborted = gate.wait(cancelled.signal).then((r) => (order.push('aborted'), r));
    const last = gate.wait(live).then((r) => (order.push('last'), r));
    cancelled.abort();
    await expect(aborted).rejects.toBeInstanceOf(CancelledError);
    expect(gate.waiting).toBe(2);
    held();
    (await first)();
    (await last)();
    expect(order).toEqual(['first', 'last']);
    expect(gate.inUse).toBe(0);
  });

  it.each([
    ['the oldest', 0],
    ['a middle', 1],
    ['the newest', 2]
  ])('unlinks %s waiter and serves the others in order', async (_label, index) => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const controllers = [0, 1, 2].map(() => new AbortController());
    const order: number[] = [];
    const waits = controllers.map((c, i) => gate.wait(c.signal).then((r) => (order.push(i), r)));
    controllers[index].abort();
    await expect(waits[index]).rejects.toBeInstanceOf(CancelledError);
    held();
    for (const i of [0, 1, 2].filter((i) => i !== index)) (await waits[i])();
    expect(order).toEqual([0, 1, 2].filter((i) => i !== index));
    expect(gate.inUse).toBe(0);
    expect(gate.waiting).toBe(0);
  });

  it('returns the slot when every waiter was aborted', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const controller = new AbortController();
    setMaxListeners(1000, controller.signal); // one signal shared by 1000 waits, on purpose
    const waits = Array.from({ length: 1000 }, () => gate.wait(controller.signal));
    expect(gate.waiting).toBe(1000);
    controller.abort();
    expect(gate.waiting).toBe(0);
    const outcomes = await Promise.allSettled(waits);
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof CancelledError)).toBe(true);
    held();
    expect(gate.inUse).toBe(0);
    expect(gate.tryAcquire()).toBeDefined();
  });

  it('an abort after the slot was granted changes nothing: the waiter keeps its slot', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const controller = new AbortController();
    const waiting = gate.wait(controller.signal);
    held();
    controller.abort(); // granted synchronously by the release: too late to cancel the wait
    const release = await waiting;
    expect(typeof release).toBe('function');
    expect(gate.inUse).toBe(1);
    release();
    expect(gate.inUse).toBe(0);
  });
});

describe('SlotGate: no listener leaks', () => {
  it('adds one abort listener per wait and removes it when the slot is granted', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const controller = new AbortController();
    const waiting = gate.wait(controller.signal);
    expect(abortListeners(controller.signal)).toBe(1);
    held();
    expect(abortListeners(controller.signal)).toBe(0);
    (await waiting)();
  });

  it('removes the abort listener when the wait is aborted', async () => {
    const gate = new SlotGate(1);
    gate.tryAcquire();
    const controller = new AbortController();
    const waiting = gate.wait(controller.signal);
    controller.abort();
    expect(abortListeners(controller.signal)).toBe(0);
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
  });

  it('leaves no listener on a signal shared by many waits once all are served', async () => {
    const gate = new SlotGate(1);
    let release = gate.tryAcquire()!;
    const shared = new AbortController().signal;
    setMaxListeners(50, shared); // one signal shared by 50 waits, on purpose
    const waits = Array.from({ length: 50 }, () => gate.wait(shared));
    expect(abortListeners(shared)).toBe(50);
    for (const waiting of waits) {
      release();
      release = await waiting;
    }
    release();
    expect(abortListeners(shared)).toBe(0);
    expect(gate.inUse).toBe(0);
  });

  it('when one wait on a shared signal is served and the signal then aborts, only the others reject', async () => {
    const gate = new SlotGate(1);
    const held = gate.tryAcquire()!;
    const controller = new AbortController();
    const served = gate.wait(controller.signal);
    const others = [gate.wait(controller.signal), gate.wait(controller.signal)];
    held();
    expect(abortListeners(controller.signal)).toBe(2);
    controller.abort();
    expect(abortListeners(controller.signal)).toBe(0);
    const release = await served;
    for (const other of others) await expect(other).rejects.toBeInstanceOf(CancelledError);
    expect(gate.waiting).toBe(0);
    release();
    expect(gate.inUse).toBe(0);
  });
});

describe('InProcessCallQueue on top of SlotGate: the "full" refusal', () => {
  it('with maxQueue 0, refuses a call at once when every slot is taken, and admits it when one is free', async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 0 });
    const signal = new AbortController().signal;
    const release = await queue.acquire(signal);
    await expect(queue.acquire(signal)).rejects.toBeInstanceOf(ServerBusyError);
    expect(queue.waiting).toBe(0);
    release();
    (await queue.acquire(signal))();
    expect(queue.active).toBe(0);
  });

  it('an aborted waiter frees its place in the queue at once', async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 1 });
    const release = await queue.acquire(new AbortController().signal);
    const controller = new AbortController();
    const cancelled = queue.acquire(controller.signal);
    await expect(queue.acquire(new AbortController().signal)).rejects.toBeInstanceOf(ServerBusyError);
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    const admitted = queue.acquire(new AbortController().signal);
    expect(queue.waiting).toBe(1);
    release();
    (await admitted)();
    expect(queue.active).toBe(0);
  });

  it('checks the abort before the capacity: an aborted call is cancelled, not "busy"', async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 0 });
    const release = await queue.acquire(new AbortController().signal);
    const controller = new AbortController();
    controller.abort();
    await expect(queue.acquire(controller.signal)).rejects.toBeInstanceOf(CancelledError);
    release();
  });
});
