/**
 * A wait in line keeps its own request alive in a Cloudflare Worker (a timer of its own until it
 * ends), and does nothing elsewhere: no timer keeps a Node process open. workerd's side is shown
 * by test/integration/targets/workers.test.ts (a mutation waiting for another's release).
 */
describe('keepWaitAlive', () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  afterEach(() => {
    jest.useRealTimers();
    if (had) Object.defineProperty(globalThis, 'navigator', had);
    else delete (globalThis as { navigator?: unknown }).navigator;
  });

  function load(): typeof import('../../../src/concurrency/worker-wait') {
    let loaded!: typeof import('../../../src/concurrency/worker-wait');
    jest.isolateModules(() => {
      loaded = require('../../../src/concurrency/worker-wait') as typeof import('../../../src/concurrency/worker-wait');
    });
    return loaded;
  }

  it('in a Worker, holds a timer while the wait lasts and clears it when it ends', () => {
    Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true });
    jest.useFakeTimers();
    const { keepWaitAlive } = load();
    const end = keepWaitAlive();
    expect(jest.getTimerCount()).toBe(1);
    end();
    end();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('elsewhere, holds nothing', () => {
    jest.useFakeTimers();
    const { keepWaitAlive } = load();
    keepWaitAlive();
    expect(jest.getTimerCount()).toBe(0);
  });
});
