import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp } from '../../src';
import type { HarnessInputAnswer, HarnessInputRequest } from '../../src/testing';
import { MAX_INPUT_ROUNDS } from '../../src/advanced';
import { connectTestClient } from '../../src/testing';
import { InteractiveTools, Ledger } from '../fixtures/interactive-tools';
import { until } from '../helpers/wire-log';

const KEY = 'k'.repeat(32);
const text = (result: { content: unknown[] }) => (result.content as Array<{ text?: string }>).map((c) => c.text).join('\n');

function makeApp(options: { ttl?: number } = {}) {
  const ledger = new Ledger();
  const app = FusionApp.create({
    tools: [InteractiveTools],
    providers: [{ provide: Ledger, useValue: ledger }],
    stateKey: KEY,
    stateTtlSeconds: options.ttl,
    logger: () => undefined
  });
  return { app, ledger };
}

const ERAS = ['modern', 'legacy-http', 'legacy-memory'] as const;

describe('form requests in both eras', () => {
  for (const era of ERAS) {
    it(`${era}: confirm → refunded exactly once; decline → "Refund cancelled", nothing written`, async () => {
      const { app, ledger } = makeApp();
      const yes = await connectTestClient(app, { era, answers: { confirm: true } });
      expect(text(await yes.client.callTool({ name: 'refund', arguments: { amount: 120 } }))).toBe('Refunded $120');
      await yes.close();
      const no = await connectTestClient(app, { era, onInput: () => ({ action: 'decline' }) });
      expect(text(await no.client.callTool({ name: 'refund', arguments: { amount: 50 } }))).toBe('Refund cancelled');
      await no.close();
      expect(ledger.refunds).toEqual([120]);
      await app.close();
    });

    it(`${era}: several fields in one round, validated and typed`, async () => {
      const { app } = makeApp();
      const seen: HarnessInputRequest[] = [];
      const { client, close } = await connectTestClient(app, {
        era,
        onInput: (r) => (
          seen.push(r),
          { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36, plan: 'pro', tags: ['a'] } }
        )
      });
      const result = await client.callTool({ name: 'profile', arguments: {} });
      expect(result.structuredContent).toEqual({ name: 'Ada', email: 'ada@example.com', age: 36, plan: 'pro', tags: ['a'] });
      expect(seen).toHaveLength(1);
      expect(seen[0].requestedSchema).toMatchObject({
        type: 'object',
        required: ['name', 'email', 'age', 'plan'],
        properties: {
          name: { type: 'string', minLength: 2, maxLength: 20 },
          email: { type: 'string', format: 'email' },
          age: { type: 'integer', minimum: 18, maximum: 130 },
          plan: {
            type: 'string',
            oneOf: [
              { const: 'free', title: 'Free' },
              { const: 'pro', title: 'Pro' }
            ]
          },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 }
        }
      });
      await close();
      await app.close();
    });

    it(`${era}: a multi-step sequence carried in the signed state`, async () => {
      const { app } = makeApp();
      const { client, close } = await connectTestClient(app, { era, answers: { reason: 'discount', amount: 40 } });
      const result = await client.callTool({ name: 'adjust', arguments: {} });
      expect(result.structuredContent).toEqual({ reason: 'discount', amount: 40, state: { step: 2, reason: 'discount' } });
      await close();
      await app.close();
    });

    it(`${era}: a URL request (consent page)`, async () => {
      const { app } = makeApp();
      const urls: string[] = [];
      const { client, close } = await connectTestClient(app, { era, onInput: (r) => (urls.push(r.url ?? ''), { action: 'accept' }) });
      expect(text(await client.callTool({ name: 'connect', arguments: {} }))).toBe('connected');
      expect(urls).toEqual(['https://example.com/consent?x=1']);
      await close();
      await app.close();
    });
  }
});

describe('answers are untrusted', () => {
  it('an invalid answer never reaches the handler: the field is asked again with the reason', async () => {
    const { app } = makeApp();
    const answers: HarnessInputAnswer[] = [
      { action: 'accept', content: { name: 'A', email: 'not-an-email', age: 12, plan: 'gold', tags: ['a', 'z'] } },
      { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', age: 36, plan: 'free' } }
    ];
    const messages: string[] = [];
    const result = await app.callTool('profile', {}, { onInput: (r) => (messages.push(r.message ?? ''), answers.shift()!) });
    expect(result.structuredContent).toEqual({ name: 'Ada', email: 'ada@example.com', age: 36, plan: 'free', tags: [] });
    expect(messages[1]).toContain('The previous answer was invalid:');
    for (const problem of [
      'name must be at least 2 characters',
      'email must be a valid email',
      'age must be at least 18',
      'plan must be one of free, pro',
      'tags has values not offered: z'
    ]) {
      expect(messages[1]).toContain(problem);
    }
  });

  it('decline and cancel are told apart from "not asked yet"; by default they end the call', async () => {
    const { app } = makeApp();
    expect(text(await app.callTool('handles.decline', {}, { onInput: () => ({ action: 'decline' }) }))).toBe('handler saw declined');
    expect(text(await app.callTool('handles.decline', {}, { onInput: () => ({ action: 'cancel' }) }))).toBe('handler saw cancelled');
    expect(text(await app.callTool('handles.decline', {}, { answers: { ok: true } }))).toBe('answered');
    const ended = await app.callTool('profile', {}, { onInput: () => ({ action: 'cancel' }) });
    expect(text(ended)).toBe('The user cancelled the request for input (name, email, age, plan, tags); nothing was done.');
  });
});

describe('round cap', () => {
  for (const era of ['direct', 'modern', 'legacy-memory'] as const) {
    it(`${era}: the eighth round is allowed and the ninth refused`, async () => {
      const { app } = makeApp();
      const answerAll = (r: HarnessInputRequest): HarnessInputAnswer => ({
        action: 'accept',
        content: Object.fromEntries(Object.keys((r.requestedSchema?.properties as object) ?? {}).map((k) => [k, true]))
      });
      const call = async (rounds: number) => {
        if (era === 'direct') return app.callTool('rounds', { rounds }, { onInput: answerAll });
        const { client, close } = await connectTestClient(app, { era, onInput: answerAll, maxRounds: 20 });
        try {
          return await client.callTool({ name: 'rounds', arguments: { rounds } });
        } finally {
          await close();
        }
      };
      expect(text(await call(MAX_INPUT_ROUNDS))).toBe('answered 8');
      const refused = await call(MAX_INPUT_ROUNDS + 1);
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe('Tool rounds asked for input more than 8 times; the call was ended.');
      await app.close();
    });
  }
});

describe('no channel, no capability, misuse', () => {
  it('ELICITATION_UNSUPPORTED on a 2025-era stateless (JSON-only) connection, never a hang', async () => {
    const { app } = makeApp();
    const { url } = (await app.listen({ transport: 'http', port: 0, responseMode: 'json', handleSignals: false })) as { url: URL };
    const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.callTool({ name: 'refund', arguments: { amount: 5 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^ELICITATION_UNSUPPORTED: .*stateless/);
    await client.close();
    await app.close();
  });

  for (const era of ERAS) {
    it(`${era}: ELICITATION_UNSUPPORTED when the client did not declare elicitation`, async () => {
      const { app, ledger } = makeApp();
      const { client, close } = await connectTestClient(app, { era });
      const result = await client.callTool({ name: 'refund', arguments: { amount: 5 } });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('ELICITATION_UNSUPPORTED');
      expect(ledger.refunds).toEqual([]);
      await close();
      await app.close();
    });
  }

  it('a non-interactive tool that asks is a clear error; readInput outside one too', async () => {
    const { app } = makeApp();
    const asked = await app.callTool('not.interactive', {}, { answers: { x: true } });
    expect(text(asked)).toBe(
      'Tool not.interactive (InteractiveTools.notInteractive) returned a request for input but is not marked @Interactive(): add @Interactive() to the method.'
    );
    const read = await app.callTool('reads.outside');
    expect(text(read)).toContain('readInput() was called outside an @Interactive() tool call');
  });
});

describe('waiting for a human holds nothing', () => {
  for (const era of ['direct', 'modern', 'legacy-memory'] as const) {
    it(`${era}: the mutation lock and the queue slot are free while an answer is awaited; cancelling the wait ends it`, async () => {
      const ledger = new Ledger();
      const app = FusionApp.create({
        tools: [InteractiveTools],
        providers: [{ provide: Ledger, useValue: ledger }],
        stateKey: KEY,
        concurrency: { maxActive: 1, maxQueue: 4 }
      });
      let asked!: () => void;
      const askedPromise = new Promise<void>((resolve) => (asked = resolve));
      let answer!: (a: HarnessInputAnswer) => void;
      const onInput = () => {
        asked();
        return new Promise<HarnessInputAnswer>((resolve) => (answer = resolve));
      };
      const controller = new AbortController();
      let pending: Promise<unknown>;
      let close: () => Promise<void> = async () => undefined;
      if (era === 'direct') {
        pending = app.callTool('slow.ask', {}, { onInput });
      } else {
        const connected = await connectTestClient(app, { era, onInput });
        close = connected.close;
        pending = connected.client.callTool({ name: 'slow.ask', arguments: {} }, { signal: controller.signal }).catch((e: Error) => e);
      }
      await askedPromise;
      // Another mutation runs to completion while the human has not answered (maxActive is 1).
      expect(text(await app.callTool('quick.write'))).toBe('written');
      if (era !== 'legacy-memory') {
        // Between MRTR rounds the server holds nothing at all: the state is in the client's hands.
        expect(app.activeCalls).toBe(0);
        answer({ action: 'accept', content: { go: true } });
        expect(text((await pending) as { content: unknown[] })).toBe('went');
      } else {
        // On the live channel the call waits inside the server; cancelling ends the wait at once.
        controller.abort();
        expect(await pending).toBeInstanceOf(Error);
        await until(() => app.activeCalls === 0, 'the call to end');
        expect(text(await app.callTool('quick.write'))).toBe('written');
      }
      await close();
      await app.close();
    });
  }
});
