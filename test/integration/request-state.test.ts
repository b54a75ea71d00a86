import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, type FusionHttpHandler } from '../../src';
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
    // Mint as alice, replay as mallory through the engine's own retry path.
    const engine = (bound as unknown as { engine: { call(r: Record<string, unknown>): Promise<Record<string, unknown>> } }).engine;
    const minted = await engine.call({
      name: 'refund',
      arguments: { amount: 3 },
      meta: { user: 'alice' },
      inputChannel: { form: true, url: true }
    });
    const captured = minted.requestState as string;
    await expect(
      engine.call({
        name: 'refund',
        arguments: { amount: 3 },
        meta: { user: 'mallory' },
        requestState: captured,
        inputResponses: confirmYes,
        inputChannel: { form: true, url: true }
      })
    ).rejects.toThrow(/issued to another caller/);
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

describe('answers sent with the first call', () => {
  it('are read against the request the handler makes (validated, unknown keys ignored)', async () => {
    const ledger = new Ledger();
    const app = FusionApp.create({ tools: [InteractiveTools], providers: [{ provide: Ledger, useValue: ledger }], stateKey: KEY });
    const handler = app.createHttpHandler();
    const { client, call } = await manualClient(handler);
    const done = await call({
      name: 'refund',
      arguments: { amount: 4 },
      inputResponses: { input: { action: 'accept', content: { confirm: true } }, unknown_extra: { action: 'accept', content: { x: 1 } } }
    });
    expect(done.content).toEqual([{ type: 'text', text: 'Refunded $4' }]);
    const invalid = await call({
      name: 'refund',
      arguments: { amount: 5 },
      inputResponses: { input: { action: 'accept', content: { confirm: 'yes' } } }
    });
    expect(invalid.resultType).toBe('input_required');
    expect(JSON.stringify(invalid.inputRequests)).toContain('The previous answer was invalid: confirm must be true or false');
    expect(ledger.refunds).toEqual([4]);
    await client.close();
    await app.close();
  });
});
