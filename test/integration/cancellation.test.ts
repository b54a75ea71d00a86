import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, type MiddlewareFn } from '../../src';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { startHangingStdioCall } from '../helpers/stdio-child';
import { recordWire, until } from '../helpers/wire-log';

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

function makeApp(options: { maxActive?: number; maxQueue?: number; middleware?: MiddlewareFn[] } = {}) {
  const probe = new Probe();
  const app = FusionApp.create({
    tools: [DeskTools],
    providers: [{ provide: Probe, useValue: probe }],
    concurrency: { maxActive: options.maxActive ?? 8, maxQueue: options.maxQueue ?? 8 },
    middleware: options.middleware
  });
  return { app, probe };
}

/**
 * Starts the `hang` tool through a real client, aborts the client's call once the handler runs,
 * and waits until the server has stopped it (the client's call rejects, nothing stays in flight).
 */
async function cancelHangingCall(client: Client, app: FusionApp, probe: Probe, reason?: string): Promise<void> {
  const controller = new AbortController();
  const call = client.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal });
  await probe.entered;
  controller.abort(reason);
  await expect(call).rejects.toThrow();
  await until(() => app.activeCalls === 0, 'the call to stop');
}

describe('stage 1: the queue', () => {
  it('a cancelled queued call leaves at once and never starts; a full queue refuses with "server busy"', async () => {
    const { app, probe } = makeApp({ maxActive: 1, maxQueue: 1 });
    const holder = new AbortController();
    const running = app.callTool('hang', {}, { signal: holder.signal });
    await probe.entered;
    const queued = new AbortController();
    const spy = jest.spyOn(DeskTools.prototype, 'echo');
    const waiting = app.callTool('echo', { text: 'never' }, { signal: queued.signal });
    const busy = await app.callTool('echo', { text: 'refused' });
    expect(busy).toEqual({ isError: true, content: [{ type: 'text', text: 'Server busy: 1 calls are already waiting. Retry later.' }] });
    queued.abort();
    expect((await waiting).isError).toBe(true);
    holder.abort();
    await running;
    expect(spy).not.toHaveBeenCalled();
    expect(text(await app.callTool('echo', { text: 'after' }))).toContain('after');
    spy.mockRestore();
    await app.close();
  });
});

describe('stage 2: the chain gate', () => {
  it('an aborted call runs no further middleware and never reaches the handler', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const after = jest.fn();
    let entered!: () => void;
    const inMiddleware = new Promise<void>((resolve) => (entered = resolve));
    const slow: MiddlewareFn = async (_ctx, next) => {
      entered();
      await gate;
      return next();
    };
    const later: MiddlewareFn = (_ctx, next) => {
      after();
      return next();
    };
    const { app } = makeApp({ middleware: [slow, later] });
    const spy = jest.spyOn(DeskTools.prototype, 'echo');
    const controller = new AbortController();
    const call = app.callTool('echo', { text: 'x' }, { signal: controller.signal });
    await inMiddleware;
    controller.abort();
    release();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(after).not.toHaveBeenCalled();
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    await app.close();
  });
});

describe('stage 3: the mutation mutex', () => {
  it('drops aborted waiters, keeps FIFO order among the others, and frees the lock when the holder is aborted', async () => {
    const { app, probe } = makeApp();
    const holder = new AbortController();
    const held = app.callTool('lock.hold', {}, { signal: holder.signal });
    await probe.entered;
    const order: string[] = [];
    const dropped = new AbortController();
    const a = app.callTool('lock.quick', { text: 'a' }).then((r) => (order.push(text(r)), r));
    const b = app.callTool('lock.quick', { text: 'b' }, { signal: dropped.signal }).then((r) => (order.push('b:' + String(r.isError)), r));
    const c = app.callTool('lock.quick', { text: 'c' }).then((r) => (order.push(text(r)), r));
    dropped.abort();
    await b;
    expect(order).toEqual(['b:true']);
    holder.abort();
    expect((await held).isError).toBe(true);
    await Promise.all([a, c]);
    expect(order).toEqual(['b:true', 'wrote a', 'wrote c']);
    await app.close();
  });
});

describe('stage 4: generators', () => {
  it('a generator stuck on a promise that never settles is abandoned at once: slot and lock free, response not blocked', async () => {
    const { app, probe } = makeApp({ maxActive: 1 });
    const controller = new AbortController();
    const call = app.callTool('stuck', {}, { signal: controller.signal, onProgress: () => undefined });
    await probe.entered;
    controller.abort();
    const result = await call;
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'The call was cancelled.' }] });
    expect(app.activeCalls).toBe(0);
    // The only queue slot is free again.
    expect(text(await app.callTool('echo', { text: 'next' }))).toContain('next');
    await app.close();
  });

  it("an aborted generator's finally runs (return() is called without being awaited)", async () => {
    const { app, probe } = makeApp();
    const controller = new AbortController();
    const call = app.callTool('sleepy', {}, { signal: controller.signal });
    await probe.entered;
    controller.abort();
    expect((await call).isError).toBe(true);
    await until(() => probe.finallyRan === 1, 'the generator finally');
    await app.close();
  });
});

describe('sources of abort', () => {
  it('notifications/cancelled on a 2025-era connection (in memory): the call stops and gets no response', async () => {
    const { app, probe } = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'legacy-memory' });
    const log = recordWire(client);
    await cancelHangingCall(client, app, probe, 'user pressed stop');
    // Give any stray response a chance to arrive, then check nothing came.
    await client.callTool({ name: 'echo', arguments: { text: 'barrier' } });
    expect(log.filter((m) => m.result !== undefined)).toHaveLength(1);
    await close();
    await app.close();
  });

  it('notifications/cancelled on a 2025-era HTTP session', async () => {
    const { app, probe } = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'legacy-http' });
    await cancelHangingCall(client, app, probe);
    await close();
    await app.close();
  });

  it('a 2026-era HTTP client closing its response stream (in process and over a real socket)', async () => {
    const { app, probe } = makeApp();
    const { client, close } = await connectTestClient(app, { era: 'modern' });
    await cancelHangingCall(client, app, probe);
    await close();

    probe.reset();
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    const remote = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await remote.connect(new StreamableHTTPClientTransport(url));
    await cancelHangingCall(remote, app, probe);
    await remote.close();
    await app.close();
  });

  it('server shutdown aborts calls in flight', async () => {
    const { app, probe } = makeApp();
    const call = app.callTool('hang', {});
    await probe.entered;
    await app.close();
    expect(await call).toEqual({ isError: true, content: [{ type: 'text', text: 'The app is shutting down; the call was not run.' }] });
    expect(app.activeCalls).toBe(0);
    expect((await app.callTool('echo', { text: 'late' })).isError).toBe(true);
  });

  it('a per-tool timeout ends the call with a clear timeout error and runs the finally', async () => {
    const { app, probe } = makeApp();
    const result = await app.callTool('sleepy', {});
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'Tool sleepy timed out after 50 ms and was stopped.' }] });
    await until(() => probe.finallyRan === 1, 'the generator finally');
    await app.close();
  });

  it('stdio end of input aborts the call in flight', async () => {
    const stdio = await startHangingStdioCall();
    const code = await stdio.end();
    expect(stdio.err()).toContain('hang: aborted');
    expect(code).toBe(0);
    expect(stdio.out()).not.toContain('"id":2');
  }, 30_000);

  it('SIGTERM shuts down gracefully: the call in flight is aborted and the process exits 0', async () => {
    const stdio = await startHangingStdioCall();
    const exited = new Promise<number | null>((resolve) => stdio.child.on('exit', resolve));
    stdio.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdio.err()).toContain('hang: aborted');
    expect(stdio.err()).toContain('SIGTERM: shutting down');
  }, 30_000);

  it('notifications/cancelled over stdio: the call stops and gets no response', async () => {
    const stdio = await startHangingStdioCall();
    stdio.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'user stopped it' } });
    await until(() => stdio.err().includes('hang: aborted'), 'the call to stop', 10_000_000);
    stdio.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: {} } });
    await until(() => stdio.out().includes('"id":3'), 'the next answer', 10_000_000);
    await stdio.end();
    expect(stdio.out()).not.toContain('"id":2');
  }, 30_000);
});

describe('nothing stuck holds a slot', () => {
  it('a middleware that ignores the signal cannot keep the queue slot or the mutation lock after an abort', async () => {
    let entered!: () => void;
    const inMiddleware = new Promise<void>((resolve) => (entered = resolve));
    const stuck: MiddlewareFn = async (ctx, next) => {
      if (ctx.tool.name === 'lock.quick' && ctx.args.text === 'stuck') {
        entered();
        await new Promise<never>(() => undefined);
      }
      return next();
    };
    const { app } = makeApp({ maxActive: 1, middleware: [stuck] });
    const controller = new AbortController();
    const call = app.callTool('lock.quick', { text: 'stuck' }, { signal: controller.signal });
    await inMiddleware;
    controller.abort();
    expect((await call).isError).toBe(true);
    // The only slot is free again.
    expect(text(await app.callTool('lock.quick', { text: 'next' }))).toBe('wrote next');
    await app.close();
  });

  it('a context factory that hangs cannot keep the slot after an abort', async () => {
    let entered!: () => void;
    const inFactory = new Promise<void>((resolve) => (entered = resolve));
    let first = true;
    const app = FusionApp.create({
      tools: [DeskTools],
      providers: [{ provide: Probe, useValue: new Probe() }],
      concurrency: { maxActive: 1, maxQueue: 1 },
      contextFactory: async () => {
        if (first) {
          first = false;
          entered();
          await new Promise<never>(() => undefined);
        }
        return {};
      }
    });
    const controller = new AbortController();
    const call = app.callTool('echo', { text: 'a' }, { signal: controller.signal });
    await inFactory;
    controller.abort();
    expect((await call).isError).toBe(true);
    expect(text(await app.callTool('echo', { text: 'b' }))).toContain('b');
    await app.close();
  });
});
