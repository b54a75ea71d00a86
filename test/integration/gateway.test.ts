import { join } from 'node:path';
import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequestParams,
  type ElicitResult,
  type JSONRPCMessage,
  type Transport
} from '@modelcontextprotocol/client';
import { Action, FusionApp, ToolProvider, proxy } from '../../src';
import type { Gateway, UpstreamTarget } from '../../src/advanced';
import { GatewayUpstreamTools } from '../fixtures/gateway-upstream-tools';
import { until } from '../helpers/wire-log';

/**
 * The gateway across the matrix: an upstream over HTTP (in-process, on 127.0.0.1) or stdio (a
 * child process), spoken to in the 2025 era (its questions live `elicitation/create` requests)
 * or in 2026-07-28 (its questions `input_required` results), behind a front app that a real SDK
 * client uses in either era. Every test reads the wire at the front client's transport.
 */

interface Upstream {
  readonly target: UpstreamTarget;
  close(): Promise<void>;
}

// The compiled fixture (`npm test` compiles first, as for the other spawned fixtures): a child that compiled TypeScript
// as it loads (ts-node) took over 20 s to start on a loaded machine, and the reconnect test starts one twice.
const STDIO_UPSTREAM = {
  command: process.execPath,
  args: [join(__dirname, '..', '..', 'build', 'test', 'fixtures', 'gateway-upstream.js')]
};

async function httpUpstream(): Promise<Upstream> {
  const app = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [GatewayUpstreamTools], logger: () => undefined });
  const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
  return { target: url!, close: () => app.close() };
}

const stdioUpstream = (): Promise<Upstream> => Promise.resolve({ target: STDIO_UPSTREAM, close: () => Promise.resolve() });

/** What the front client saw, in arrival order: progress and responses. */
type Seen = { kind: 'progress'; progress: number; message?: string } | { kind: 'response' };

interface Front {
  readonly client: Client;
  readonly seen: Seen[];
  readonly asked: Array<{ message: string; id: unknown }>;
  answer: (params: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>;
  close(): Promise<void>;
}

async function connectFront(app: FusionApp, era: 'modern' | 'legacy', asks = true): Promise<Front> {
  const handler = app.createHttpHandler();
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    {
      capabilities: asks ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' }
    }
  );
  const front: Front = {
    client,
    seen: [],
    asked: [],
    answer: () => ({ action: 'accept', content: { ok: true } }),
    close: async () => {
      await client.close();
      await handler.close();
    }
  };
  if (asks)
    client.setRequestHandler('elicitation/create', (request, ctx) => {
      front.asked.push({ message: request.params.message, id: ctx.mcpReq.id });
      return Promise.resolve(front.answer(request.params));
    });
  const transport: Transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init))
  });
  await client.connect(transport);
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'notifications/progress') {
      const params = message.params as { progress: number; message?: string };
      front.seen.push({ kind: 'progress', progress: params.progress, ...(params.message ? { message: params.message } : {}) });
    } else if ('id' in message && ('result' in message || 'error' in message)) front.seen.push({ kind: 'response' });
    receive?.(message);
  };
  return front;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

describe.each([
  { upstream: 'HTTP', era: '2025' as const, start: httpUpstream },
  { upstream: 'HTTP', era: '2026' as const, start: httpUpstream },
  { upstream: 'stdio', era: '2025' as const, start: stdioUpstream },
  { upstream: 'stdio', era: '2026' as const, start: stdioUpstream }
])('a gateway to an upstream over $upstream in the $era era', ({ upstream: kind, era, start }) => {
  let upstream: Upstream;
  let gateway: Gateway;
  let app: FusionApp;

  beforeAll(async () => {
    upstream = await start();
    gateway = await proxy(upstream.target, { namespace: 'up', era, logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  describe.each(['modern', 'legacy'] as const)('a %s front client', (frontEra) => {
    let front: Front;
    beforeEach(async () => {
      front = await connectFront(app, frontEra);
    });
    afterEach(async () => {
      await front.close();
    });

    it("lists the upstream's tools under the namespace, with their annotations and schemas as listed upstream", async () => {
      const { tools } = await front.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect([...byName.keys()]).toEqual(expect.arrayContaining(['up.count', 'up.confirm', 'up.hold', 'up.touch']));
      expect(byName.get('up.count')!.annotations).toMatchObject({ title: 'Count', readOnlyHint: true });
      expect(byName.get('up.touch')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      expect(byName.get('up.confirm')!.inputSchema).toMatchObject({ properties: { n: { type: 'integer', minimum: 0 } } });
    });

    it('forwards progress in order, all of it before the response', async () => {
      const result = await front.client.callTool({ name: 'up.count', arguments: {} }, { onprogress: () => undefined });
      expect(result.structuredContent).toEqual({ counted: 3 });
      expect(front.seen).toEqual([
        { kind: 'progress', progress: 25, message: 'one' },
        { kind: 'progress', progress: 50, message: 'two' },
        { kind: 'progress', progress: 75, message: 'three' },
        { kind: 'response' }
      ]);
    });

    it("asks the upstream's question in the front client's own form, and sends the answer back upstream", async () => {
      const result = await front.client.callTool({ name: 'up.confirm', arguments: { n: 7 } });
      expect(textOf(result)).toBe('confirmed 7');
      // 2026-07-28 front: an input_required round, under the upstream's own key when it asked in a round of its own (2026), else the gateway's.
      const key = era === '2026' ? 'input' : 'upstream-question';
      expect(front.asked).toEqual([{ message: 'Proceed with 7?', id: frontEra === 'modern' ? key : expect.any(Number) }]);
    });

    it('sends a decline back upstream as a decline', async () => {
      front.answer = () => ({ action: 'decline' });
      const result = await front.client.callTool({ name: 'up.confirm', arguments: { n: 1 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Declined upstream');
    });

    it('tells the upstream at once (cancel) when the front client cannot be asked, and nothing waits', async () => {
      const mute = await connectFront(app, frontEra, false);
      try {
        const result = await mute.client.callTool({ name: 'up.confirm', arguments: { n: 3 } });
        expect(result.isError).toBe(true);
        // A 2026-07-28 upstream is told the front client's capabilities and answers as it would a client of its own;
        // a 2025-era one asks (the gateway declared elicitation for all) and is answered cancel.
        expect(textOf(result)).toBe(
          era === '2026'
            ? 'ELICITATION_UNSUPPORTED: this tool needs input from the user, but the client did not declare the elicitation (form) capability a form request needs.'
            : 'Declined upstream'
        );
        expect(gateway.waitingQuestions).toBe(0);
      } finally {
        await mute.close();
      }
    });

    it('validates the answer against the upstream form before it goes anywhere (asked again)', async () => {
      let answers = 0;
      front.answer = () => (++answers === 1 ? { action: 'accept', content: { ok: 'yes' } } : { action: 'accept', content: { ok: true } });
      const result = await front.client.callTool({ name: 'up.confirm', arguments: { n: 2 } });
      expect(textOf(result)).toBe('confirmed 2');
      expect(front.asked[1].message).toMatch(/^The previous answer was invalid: ok must be true or false\./);
    });

    it("serves the upstream's resources, templates, prompts and completions under the namespace", async () => {
      const { resources } = await front.client.listResources();
      expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(['up+gw://readme', 'up+gw://notes/1']));
      const { resourceTemplates } = await front.client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['up+gw://notes/{id}']);
      expect(await front.client.readResource({ uri: 'up+gw://notes/42' })).toMatchObject({
        contents: [{ uri: 'up+gw://notes/42', text: 'note 42' }]
      });
      expect(await front.client.readResource({ uri: 'up+gw://readme' })).toMatchObject({
        contents: [{ uri: 'up+gw://readme', text: 'read me' }]
      });
      await expect(front.client.readResource({ uri: 'up+gw://nothing' })).rejects.toThrow(/gw:\/\/nothing/);
      const { prompts } = await front.client.listPrompts();
      expect(prompts).toEqual([
        expect.objectContaining({ name: 'up.greet', arguments: [expect.objectContaining({ name: 'name', required: true })] })
      ]);
      const rendered = await front.client.getPrompt({ name: 'up.greet', arguments: { name: 'Ada' } });
      expect(rendered.messages[0].content).toEqual({ type: 'text', text: 'Hello Ada' });
      const names = await front.client.complete({ ref: { type: 'ref/prompt', name: 'up.greet' }, argument: { name: 'name', value: 'A' } });
      expect(names.completion.values).toEqual(['Ada', 'Alan']);
      const ids = await front.client.complete({
        ref: { type: 'ref/resource', uri: 'up+gw://notes/{id}' },
        argument: { name: 'id', value: '1' }
      });
      expect(ids.completion.values).toEqual(['1', '10']);
    });

    if (frontEra === 'legacy')
      it('cancelling the front call while its question is out (a live elicitation) cancels the waiting upstream call at once', async () => {
        const controller = new AbortController();
        let asked!: () => void;
        const questionOut = new Promise<void>((resolve) => (asked = resolve));
        front.answer = () => {
          asked();
          return new Promise<ElicitResult>(() => undefined);
        };
        const called = front.client.callTool({ name: 'up.confirm', arguments: { n: 8 } }, { signal: controller.signal });
        await questionOut;
        expect(gateway.waitingQuestions).toBe(1);
        controller.abort();
        await expect(called).rejects.toThrow();
        await until(() => gateway.waitingQuestions === 0, 'the parked upstream call to be cancelled');
      });

    it('cancels the upstream call when the front call is cancelled, and the upstream lock is free at once', async () => {
      const controller = new AbortController();
      const held = front.client.callTool(
        { name: 'up.hold', arguments: {} },
        { signal: controller.signal, onprogress: () => controller.abort() }
      );
      await expect(held).rejects.toThrow();
      // Had the hold gone on upstream, this mutation would wait for its lock past the test's timeout.
      const touched = await front.client.callTool({ name: 'up.touch', arguments: {} });
      expect(textOf(touched)).toBe('touched');
      expect(gateway.waitingQuestions).toBe(0);
    });
  });

  if (kind === 'stdio') {
    it('an upstream that dies fails its call with a clear error, and the next call reconnects', async () => {
      const front = await connectFront(app, 'modern');
      try {
        const died = await front.client.callTool({ name: 'up.die', arguments: {} });
        expect(died.isError).toBe(true);
        expect(textOf(died)).toMatch(/^The upstream MCP server .*gateway-upstream\.js is unavailable: the connection closed/);
        const again = await front.client.callTool({ name: 'up.count', arguments: {} });
        expect(again.structuredContent).toEqual({ counted: 3 });
      } finally {
        await front.close();
      }
    });
  } else {
    it('an upstream that is gone fails the call with a clear error, never a hang', async () => {
      const front = await connectFront(app, 'modern');
      try {
        await upstream.close();
        const result = await front.client.callTool({ name: 'up.count', arguments: {} });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/upstream/i);
      } finally {
        await front.close();
      }
    });
  }
});

@ToolProvider()
class LateTools {
  @Action('late', { description: 'Added while the gateway runs' })
  late() {
    return 'late';
  }
}

describe.each(['2025', '2026'] as const)('changes upstream (HTTP, %s era) reach the front clients', (era) => {
  let upstream: FusionApp;
  let app: FusionApp;

  beforeAll(async () => {
    upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [GatewayUpstreamTools], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    const gateway = await proxy(url!, { namespace: 'up', era, logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it.each(['modern', 'legacy'] as const)(
    'a tool added upstream is listed to a %s front client, which is told the list changed',
    async (frontEra) => {
      const front = await connectFront(app, frontEra);
      try {
        const changed = new Promise<void>((resolve) =>
          front.client.setNotificationHandler('notifications/tools/list_changed', () => resolve())
        );
        const subscription = frontEra === 'modern' ? await front.client.listen({ toolsListChanged: true }) : undefined;
        if (upstream.hasTools(LateTools)) upstream.removeTools(LateTools);
        else upstream.addTools(LateTools);
        await changed;
        const { tools } = await front.client.listTools();
        expect(tools.some((tool) => tool.name === 'up.late')).toBe(upstream.hasTools(LateTools));
        await subscription?.close();
      } finally {
        await front.close();
      }
    }
  );

  it('an upstream resource update reaches a 2025-era front client that subscribed to it', async () => {
    const front = await connectFront(app, 'legacy');
    try {
      const updated = new Promise<string>((resolve) =>
        front.client.setNotificationHandler('notifications/resources/updated', (notification) => resolve(notification.params.uri))
      );
      await front.client.subscribeResource({ uri: 'up+gw://notes/1' });
      await front.client.readResource({ uri: 'up+gw://notes/1' });
      upstream.notifyResourceUpdated('gw://notes/1');
      expect(await updated).toBe('up+gw://notes/1');
    } finally {
      await front.close();
    }
  });
});

describe('answers reach the upstream only for questions that were asked (a 2026-07-28 front client driving its rounds by hand)', () => {
  let upstream: Upstream;
  let gateway: Gateway;
  let app: FusionApp;
  let client: Client;
  let close: () => Promise<void>;
  const call = (params: Record<string, unknown>) =>
    client.callTool(params as { name: string; arguments: Record<string, unknown> }, { allowInputRequired: true } as never) as Promise<
      Record<string, unknown>
    >;
  const yes = { 'upstream-question': { action: 'accept', content: { ok: true } } };

  beforeAll(async () => {
    upstream = await httpUpstream();
    gateway = await proxy(upstream.target, { namespace: 'up', logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    const handler = app.createHttpHandler();
    client = new Client(
      { name: 'manual', version: '1' },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        inputRequired: { autoFulfill: false }
      }
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
    );
    close = async () => {
      await client.close();
      await handler.close();
    };
  });
  afterAll(async () => {
    await close?.();
    await app?.close();
    await upstream?.close();
  });

  it('answers sent with the first call (nothing asked yet) are ignored: the question is asked', async () => {
    const first = await call({ name: 'up.confirm', arguments: { n: 4 }, inputResponses: yes });
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests).toEqual({
      'upstream-question': expect.objectContaining({
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Proceed with 4?' })
      })
    });
    // The honest round finishes the waiting upstream call.
    const done = await call({ name: 'up.confirm', arguments: { n: 4 }, inputResponses: yes, requestState: first.requestState });
    expect(done.content).toEqual([{ type: 'text', text: 'confirmed 4' }]);
    expect(gateway.waitingQuestions).toBe(0);
  });

  it('a replayed answer is refused (-32602) and reaches nothing upstream', async () => {
    const first = await call({ name: 'up.confirm', arguments: { n: 5 } });
    const done = await call({ name: 'up.confirm', arguments: { n: 5 }, inputResponses: yes, requestState: first.requestState });
    expect(done.content).toEqual([{ type: 'text', text: 'confirmed 5' }]);
    await expect(call({ name: 'up.confirm', arguments: { n: 5 }, inputResponses: yes, requestState: first.requestState })).rejects.toThrow(
      /already used|-32602/
    );
  });

  it('an answer under a key that was not asked is ignored: the question is asked again, the upstream call still waits', async () => {
    const first = await call({ name: 'up.confirm', arguments: { n: 6 } });
    const stray = await call({
      name: 'up.confirm',
      arguments: { n: 6 },
      inputResponses: { other: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState
    });
    expect(stray.resultType).toBe('input_required');
    const done = await call({ name: 'up.confirm', arguments: { n: 6 }, inputResponses: yes, requestState: stray.requestState });
    expect(done.content).toEqual([{ type: 'text', text: 'confirmed 6' }]);
    expect(gateway.waitingQuestions).toBe(0);
  });
});

@ToolProvider()
class ClashingTools {
  @Action('count', { description: 'The front app’s own count' })
  count() {
    return 0;
  }
}

it('a proxied name that clashes with one of the app’s own is refused at startup, naming both sides', async () => {
  const upstream = await httpUpstream();
  const gateway = await proxy(upstream.target, { logger: () => undefined });
  try {
    expect(() => FusionApp.create({ tools: [ClashingTools], gateways: [gateway] })).toThrow(
      /Duplicate tool name "count" on ClashingTools\.count and gateway \(http:\/\/127\.0\.0\.1:\d+\/mcp\): give the gateway a namespace/
    );
  } finally {
    await gateway.close();
    await upstream.close();
  }
});

describe('upstream sessions: one per front session where the upstream is stateful', () => {
  it.each([
    { era: '2025' as const, expected: 'each 2025-era front session its own upstream session; sessionless clients share one' },
    { era: '2026' as const, expected: 'no upstream sessions at all (2026-07-28 is stateless)' }
  ])('HTTP upstream in the $era era: $expected', async ({ era }) => {
    const upstream = await httpUpstream();
    const gateway = await proxy(upstream.target, { namespace: 'up', era, logger: () => undefined });
    const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    const fronts = [await connectFront(app, 'legacy'), await connectFront(app, 'legacy'), await connectFront(app, 'modern')];
    try {
      const whoami = async (front: Front) => textOf(await front.client.callTool({ name: 'up.whoami', arguments: {} }));
      const [a1, a2, b, c] = [await whoami(fronts[0]), await whoami(fronts[0]), await whoami(fronts[1]), await whoami(fronts[2])];
      if (era === '2026') {
        expect([a1, a2, b, c]).toEqual(['none', 'none', 'none', 'none']);
        expect((gateway as unknown as { upstreamSessions: number }).upstreamSessions).toBe(0);
      } else {
        expect(a2).toBe(a1);
        expect(new Set([a1, b, c]).size).toBe(3);
        expect((gateway as unknown as { upstreamSessions: number }).upstreamSessions).toBe(2);
      }
    } finally {
      for (const front of fronts) await front.close();
      await app.close();
      await upstream.close();
    }
  });
});
