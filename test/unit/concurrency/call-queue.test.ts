import { CancelledError, InProcessCallQueue, ServerBusyError } from '../../../src/advanced';

describe('InProcessCallQueue', () => {
  it('admits maxActive at once and queues the rest in FIFO order', async () => {
    const queue = new InProcessCallQueue({ maxActive: 2, maxQueue: 10 });
    const signal = new AbortController().signal;
    const r1 = await queue.acquire(signal);
    const r2 = await queue.acquire(signal);
    const order: number[] = [];
    const w3 = queue.acquire(signal).then((r) => (order.push(3), r));
    const w4 = queue.acquire(signal).then((r) => (order.push(4), r));
    expect(queue.active).toBe(2);
    expect(queue.waiting).toBe(2);
    r1();
    r1(); // idempotent: releases once
    const r3 = await w3;
    expect(queue.waiting).toBe(1);
    r2();
    const r4 = await w4;
    expect(order).toEqual([3, 4]);
    r3();
    r4();
    expect(queue.active).toBe(0);
  });

  it('refuses at once with ServerBusyError when the queue is full', async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 1 });
    const signal = new AbortController().signal;
    const release = await queue.acquire(signal);
    const waiting = queue.acquire(signal);
    await expect(queue.acquire(signal)).rejects.toBeInstanceOf(ServerBusyError);
    release();
    (await waiting)();
  });

  it('drops an aborted waiter at once; it never starts and the others keep their order', async () => {
    const queue = new InProcessCallQueue({ maxActive: 1, maxQueue: 10 });
    const release = await queue.acquire(new AbortController().signal);
    const a = new AbortController();
    const order: string[] = [];
    const first = queue.acquire(new AbortController().signal).then((r) => (order.push('first'), r));
    const cancelled = queue.acquire(a.signal);
    const last = queue.acquire(new AbortController().signal).then((r) => (order.push('last'), r));
    a.abort();
    await expect(cancelled).rejects.toBeInstanceOf(CancelledError);
    expect(queue.waiting).toBe(2);
    release();
    (await first)();
    (await last)();
    expect(order).toEqual(['first', 'last']);
    expect(queue.active).toBe(0);
  });

  it('validates its limits', () => {
    expect(() => new InProcessCallQueue({ maxActive: 0 })).toThrow(RangeError);
    expect(() => new InProcessCallQueue({ maxQueue: -1 })).toThrow(RangeError);
  });
});
