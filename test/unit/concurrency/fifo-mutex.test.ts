import { CancelledError, FifoMutex } from '../../../src/advanced';

describe('FifoMutex', () => {
  it('serves waiters in arrival order and skips aborted ones', async () => {
    const mutex = new FifoMutex();
    const release = await mutex.acquire(new AbortController().signal);
    expect(mutex.locked).toBe(true);
    const order: string[] = [];
    const aborted = new AbortController();
    const w1 = mutex.acquire(new AbortController().signal).then((r) => (order.push('w1'), r));
    const w2 = mutex.acquire(aborted.signal).then((r) => (order.push('w2'), r));
    const w3 = mutex.acquire(new AbortController().signal).then((r) => (order.push('w3'), r));
    aborted.abort();
    await expect(w2).rejects.toBeInstanceOf(CancelledError);
    expect(mutex.waiting).toBe(2);
    release();
    (await w1)();
    (await w3)();
    expect(order).toEqual(['w1', 'w3']);
    expect(mutex.locked).toBe(false);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(new FifoMutex().acquire(controller.signal)).rejects.toBeInstanceOf(CancelledError);
  });
});
