import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Action, FusionApp, Interactive, Mutation, ToolProvider, type FusionHttpHandler } from '../../src';
import { InteractiveTools, Ledger } from '../fixtures/interactive-tools';

const KEY = 'k'.repeat(32);

/** A 2026-era client that drives the MRTR rounds by hand, so tests can alter what it echoes. */
async function manualClient(handler: FusionHttpHandler) {
  const client = new Client(
    { name: 'manual', version: '1' },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false }
    }
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
  );
  const call = (params: Record<string, unknown>) =>
    client.callTool(params as { name: string; arguments: Record<string, unknown> }, { allowInputRequired: true } as never) as Promise<
      Record<string, unknown>
    >;
  return { client, call };
}

describe('requestState is untrusted', () => {
  let app: FusionApp;
  let ledger: Ledger;
  let handler: FusionHttpHandler;
  beforeEach(() => {
    ledger = new Ledger();
    app = FusionApp.create({
      tools: [InteractiveTools],
      providers: [{ provide: Ledger, useValue: ledger }],
      stateKey: KEY,
      stateTtlSeconds: 60
    });
    handler = app.createHttpHandler();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await app.close();
  });

  const confirmYes = { input: { action: 'accept', content: { confirm: true } } };

  it('the honest echo completes the call', async () => {
    const { client, call } = await manualClient(handler);
    const first = await call({ name: 'refund', arguments: { amount: 9 } });
    expect(first.resultType).toBe('input_required');
    expect(typeof first.requestState).toBe('string');
    const done = await call({ name: 'refund', arguments: { amount: 9 }, inputResponses: confirmYes, requestState: first.requestState });
    expect(done.content).toEqual([{ type: 'text', text: 'Refunded $9' }]);
    await client.close();
  });

  it('tampered state is rejected before the handler runs (-32602)', async () => {
    const { client, call } = await manualClient(handler);
    const first = await call({ name: 'refund', arguments: { amount: 9 } });
    const token = first.requestState as string;
    const [v, body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.p.a = { confirm: true }; // claim an answer that was never given
    const forged = [v, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
    const entered = ledger.entered;
    await expect(call({ name: 'refund', arguments: { amount: 9 }, requestState: forged })).rejects.toThrow(
      /Invalid or expired requestState/
    );
    await expect(call({ name: 'refund', arguments: { amount: 9 }, inputResponses: confirmYes, requestState: 'garbage' })).rejects.toThrow(
      /-32602|Invalid or expired requestState/
    );
    expect(ledger.entered).toBe(entered);
    expect(ledger.refunds).toEqual([]);
    await client.close();
  });

  it('expired state is rejected', async () => {
    const { client, call } = await manualClient(handler);
    const first = await call({ name: 'refund', arguments: { amount: 9 } });
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    await expect(
      call({ name: 'refund', arguments: { amount: 9 }, inputResponses: confirmYes, requestState: first.requestState })
    ).rejects.toThrow(/Invalid or expired requestState: verification failed \(expired\)/);
    expect(ledger.refunds).toEqual([]);
    await client.close();
  });

  it('state replayed for another tool, other arguments, or another caller is rejected', async () => {
    const { client, call } = await manualClient(handler);
    const first = await call({ name: 'refund', arguments: { amount: 9 } });
    const state = first.requestState;
    await expect(call({ name: 'adjust', arguments: {}, inputResponses: confirmYes, requestState: state })).rejects.toThrow(
      /issued for another tool/
    );
    await expect(call({ name: 'refund', arguments: { amount: 9000 }, inputResponses: confirmYes, requestState: state })).rejects.toThrow(
      /issued for other arguments/
    );
    expect(ledger.refunds).toEqual([]);
    await client.close();

    const bound = FusionApp.create({
      tools: [InteractiveTools],
      providers: [{ provide: Ledger, useValue: ledger }],
      stateKey: KEY,
      principalOf: (extra) => String(extra.meta?.user ?? '')
    });
    const asAlice = await bound.callTool('refund', { amount: 3 }, { meta: { user: 'alice' }, onInput: () => ({ action: 'decline' }) });
    expect(asAlice.content).toEqual([{ type: 'text', text: 'Refund cancelled' }]);
    // Mint as alice, replay as mallory: the same state and answers, another caller.
    const { client: aliceClient, call: asCaller } = await manualClient(bound.createHttpHandler());
    const minted = await asCaller({ name: 'refund', arguments: { amount: 3 }, _meta: { user: 'alice' } });
    await expect(
      asCaller({
        name: 'refund',
        arguments: { amount: 3 },
        _meta: { user: 'mallory' },
        requestState: minted.requestState,
        inputResponses: confirmYes
      })
    ).rejects.toThrow(/issued to another caller/);
    await aliceClient.close();
    await bound.close();
  });

  it('missing answers get another input-required result, not an error', async () => {
    const { client, call } = await manualClient(handler);
    const first = await call({ name: 'refund', arguments: { amount: 9 } });
    const again = await call({ name: 'refund', arguments: { amount: 9 }, requestState: first.requestState });
    expect(again.resultType).toBe('input_required');
    await client.close();
  });
});

describe('answers only to questions asked', () => {
  let app: FusionApp;
  let ledger: Ledger;
  beforeEach(() => {
    ledger = new Ledger();
    app = FusionApp.create({ tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: ledger }], stateKey: KEY });
  });
  afterEach(() => app.close());

  const confirmYes = { input: { action: 'accept', content: { confirm: true } } };

  it('answers sent with a first call (no requestState) are ignored: the question is asked', async () => {
    const { client, call } = await manualClient(app.createHttpHandler());
    const first = await call({ name: 'refund', arguments: { amount: 4 }, inputResponses: confirmYes });
    expect(first.resultType).toBe('input_required');
    expect(JSON.stringify(first.inputRequests)).toContain('Refund $4?');
    expect(ledger.entered).toBe(1); // the chain ran once, not once more to read the answers
    expect(ledger.refunds).toEqual([]);
    await client.close();
  });

  it('an answer under __proto__, constructor or prototype never selects anything', async () => {
    const { client, call } = await manualClient(app.createHttpHandler());
    const first = await call({ name: 'refund', arguments: { amount: 4 } });
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      // JSON.parse makes the key an own property, as it arrives off the wire.
      const smuggled = JSON.parse(`{"${key}":{"input":{"action":"accept","content":{"confirm":true}},"confirm":true}}`) as object;
      const again = await call({ name: 'refund', arguments: { amount: 4 }, inputResponses: smuggled, requestState: first.requestState });
      expect(again.resultType).toBe('input_required');
    }
    // And in the content of an answer.
    const inContent = JSON.parse('{"input":{"action":"accept","content":{"__proto__":{"confirm":true}}}}') as object;
    const third = await call({ name: 'refund', arguments: { amount: 4 }, inputResponses: inContent, requestState: first.requestState });
    expect(third.resultType).toBe('input_required');
    expect(JSON.stringify(third.inputRequests)).toContain('The previous answer was invalid: confirm is required');
    expect(ledger.refunds).toEqual([]);
    await client.close();
  });

  it('a read-only tool that opts in (answersUpFront) reads answers sent with the first call, validated', async () => {
    const { client, call } = await manualClient(app.createHttpHandler());
    const done = await call({
      name: 'greet.prefilled',
      arguments: {},
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } }, unknown_extra: { action: 'accept', content: { x: 1 } } }
    });
    expect(done.content).toEqual([{ type: 'text', text: 'Hello, Ada' }]);
    const invalid = await call({
      name: 'greet.prefilled',
      arguments: {},
      inputResponses: { who: { action: 'accept', content: { name: 'A' } } }
    });
    expect(invalid.resultType).toBe('input_required');
    expect(JSON.stringify(invalid.inputRequests)).toContain('The previous answer was invalid: name must be at least 2 characters');
    await client.close();
  });

  it('answersUpFront on a mutation or a tool not annotated read-only is a startup error', () => {
    @ToolProvider()
    class Unsafe {
      @Interactive({ answersUpFront: true })
      @Mutation('unsafe.refund', { description: 'x' })
      refund() {
        return 'refunded';
      }

      @Interactive({ answersUpFront: true })
      @Action('unsafe.write', { description: 'x', annotations: { readOnlyHint: false } })
      write() {
        return 'written';
      }
    }
    expect(() => FusionApp.create({ tools: [Unsafe], stateKey: KEY })).toThrow(
      /Unsafe\.refund: answersUpFront is allowed only on read-only tools[\s\S]*Unsafe\.write: answersUpFront/
    );
  });
});

describe('single-use state (singleUseState)', () => {
  const confirmYes = { input: { action: 'accept', content: { confirm: true } } };

  it('a confirmation replayed after use is refused (-32602) and nothing runs again', async () => {
    const ledger = new Ledger();
    const app = FusionApp.create({ tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: ledger }], stateKey: KEY });
    const { client, call } = await manualClient(app.createHttpHandler());
    const first = await call({ name: 'refund.once', arguments: { amount: 7 } });
    const done = await call({
      name: 'refund.once',
      arguments: { amount: 7 },
      inputResponses: confirmYes,
      requestState: first.requestState
    });
    expect(done.content).toEqual([{ type: 'text', text: 'Refunded $7' }]);
    const entered = ledger.entered;
    await expect(
      call({ name: 'refund.once', arguments: { amount: 7 }, inputResponses: confirmYes, requestState: first.requestState })
    ).rejects.toThrow(/Invalid or expired requestState: it was already used/);
    expect(ledger.entered).toBe(entered);
    expect(ledger.refunds).toEqual([7]);
    await client.close();
    await app.close();
  });

  it('a tool without it still accepts the same state twice (the default), so the option is what protects', async () => {
    const ledger = new Ledger();
    const app = FusionApp.create({ tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: ledger }], stateKey: KEY });
    const { client, call } = await manualClient(app.createHttpHandler());
    const first = await call({ name: 'refund', arguments: { amount: 2 } });
    await call({ name: 'refund', arguments: { amount: 2 }, inputResponses: confirmYes, requestState: first.requestState });
    await call({ name: 'refund', arguments: { amount: 2 }, inputResponses: confirmYes, requestState: first.requestState });
    expect(ledger.refunds).toEqual([2, 2]);
    await client.close();
    await app.close();
  });

  it('needs a store that can consume: a custom store without consume() is a startup error', () => {
    const store = { seal: async (p: unknown) => JSON.stringify(p), open: async (t: string) => JSON.parse(t) as unknown };
    expect(() =>
      FusionApp.create({ tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: new Ledger() }], continuationStore: store })
    ).toThrow(
      /InteractiveTools\.refundOnce declare\(s\) @Interactive\(\{ singleUseState: true \}\), but the continuationStore has no consume/
    );
  });
});

describe('a continuation store that hangs', () => {
  it('cannot hold the call: sealing races the call signal, and the lock and slot are already free', async () => {
    let sealing!: () => void;
    const sealCalled = new Promise<void>((resolve) => (sealing = resolve));
    const store = {
      seal: () => (sealing(), new Promise<string>(() => undefined)), // never settles
      open: async (t: string) => JSON.parse(t) as unknown,
      consume: async () => true
    };
    const ledger = new Ledger();
    const app = FusionApp.create({
      tools: [InteractiveTools],
      providers: [{ provide: Ledger, useValue: ledger }],
      continuationStore: store
    });
    const controller = new AbortController();
    const call = app.callTool('refund', { amount: 1 }, { signal: controller.signal, answers: { confirm: true } });
    await sealCalled;
    expect((await app.callTool('quick.write')).content).toEqual([{ type: 'text', text: 'written' }]); // the mutation lock is free
    controller.abort();
    const result = await call;
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/cancelled/);
    expect(app.activeCalls).toBe(0);
    await app.close();
  });
});
