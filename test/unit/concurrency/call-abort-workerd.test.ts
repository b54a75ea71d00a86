/**
 * In a Cloudflare Worker a call follows its request's signal from the start, not from the next
 * turn: workerd drops the pending callbacks of a request that has ended, so a turn scheduled by
 * one request may never come, and the calls batched behind it never heard their request's abort
 * (test/integration/targets/workers.test.ts found it: a cancelled import kept its mutation lock).
 */
describe('CallAbort in a Cloudflare Worker (navigator.userAgent is Cloudflare-Workers)', () => {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  beforeAll(() => Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true }));
  afterAll(() => {
    if (had) Object.defineProperty(globalThis, 'navigator', had);
    else delete (globalThis as { navigator?: unknown }).navigator;
  });

  it("hears its request's abort in the same turn it was made", () => {
    jest.isolateModules(() => {
      const { CallAbort } = require('../../../src/concurrency/call-abort') as typeof import('../../../src/concurrency/call-abort');
      const request = new AbortController();
      const call = new CallAbort(request.signal);
      const heard: unknown[] = [];
      call.signal.addEventListener('abort', () => heard.push(call.signal.reason));
      request.abort(new Error('the client went away'));
      expect(heard).toHaveLength(1);
    });
  });
});
