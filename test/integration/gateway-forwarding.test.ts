import {
  Client,
  LOG_LEVEL_META_KEY,
  StreamableHTTPClientTransport,
  type CreateMessageResult,
  type JSONRPCMessage,
  type Transport
} from '@modelcontextprotocol/client';
import {
  Action,
  Ctx,
  FusionApp,
  Interactive,
  Prompt,
  ToolProvider,
  ask,
  progress,
  readInput,
  requireInput,
  proxy,
  type CallContext
} from '../../src';
import type { Gateway } from '../../src/advanced';
import { serveGateway } from '../../src/gateway/serve';

/**
 * What the gateway forwards besides progress and questions: the upstream's log messages (in
 * order with its progress, before the response), its sampling requests and roots listings (to
 * the front client in the front client's own era), and how it bounds its sessions upstream. The
 * upstream is a real app over HTTP on 127.0.0.1, spoken to in either era; the front clients are
 * real SDK clients of either era.
 */

@ToolProvider()
class ForwardedTools {
  @Action('chatty', { description: 'Logs, reports progress, logs again' })
  async *chatty(@Ctx() ctx: CallContext) {
    ctx.log.info('first');
    yield progress(50, 'half');
    ctx.log.warning('second');
    yield progress(90, 'nearly');
    return 'done';
  }

  @Interactive()
  @Action('sample', { description: "Asks the client's model" })
  sample() {
    const answer = readInput<CreateMessageResult>('sampling');
    if (answer === undefined)
      return requireInput.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 20 });
    const content = answer.content as { type: string; text?: string };
    return `the model said ${content.text ?? content.type}`;
  }

  @Interactive()
  @Action('roots', { description: "Lists the client's roots" })
  roots() {
    const roots = readInput<Array<{ uri: string }>>('roots');
    if (roots === undefined) return requireInput.roots();
    return roots.map((root) => root.uri).join(',');
  }

  @Interactive()
  @Prompt('ask_prompt', { description: 'Asks for a topic before it renders' })
  askPrompt() {
    const topic = readInput<string>('topic');
    if (topic === undefined) return requireInput.elicit('Which topic?', { topic: ask.string('Topic') }, { key: 'topic_question' });
    return `About ${topic}`;
  }

  @Action('needs_sampling', { description: 'Runs only for clients that can sample', requires: { sampling: {} } })
  needsSampling() {
    return 'ran';
  }

  @Action('whoami', { description: 'The upstream session this call came in' })
  whoami(@Ctx() ctx: CallContext) {
    return ctx.sessionId ?? 'none';
  }
}

type Seen = { kind: 'log'; level: string; data: unknown } | { kind: 'progress'; progress: number } | { kind: 'response' };

interface Front {
  readonly client: Client;
  readonly seen: Seen[];
  /** The ids of the front client's sampling and roots requests ('upstream-question' for a 2026-07-28 input_required round). */
  readonly asked: Array<{ method: string; id: unknown }>;
  close(): Promise<void>;
}

async function connectFront(app: FusionApp, era: 'modern' | 'legacy', capable = true): Promise<Front> {
  const handler = app.createHttpHandler();
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    {
      capabilities: capable ? { sampling: {}, roots: {}, elicitation: { form: {} } } : {},
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' }
    }
  );
  const front: Front = {
    client,
    seen: [],
    asked: [],
    close: async () => {
      await client.close();
      await handler.close();
    }
  };
  if (capable) {
    client.setRequestHandler('sampling/createMessage', (_request, ctx) => {
      front.asked.push({ method: 'sampling/createMessage', id: ctx.mcpReq.id });
      return Promise.resolve({
        model: 'front-model',
        role: 'assistant' as const,
        content: { type: 'text' as const, text: 'hi from the front' }
      });
    });
    client.setRequestHandler('elicitation/create', (_request, ctx) => {
      front.asked.push({ method: 'elicitation/create', id: ctx.mcpReq.id });
      return Promise.resolve({ action: 'accept' as const, content: { topic: 'gateways' } });
    });
    client.setRequestHandler('roots/list', (_request, ctx) => {
      front.asked.push({ method: 'roots/list', id: ctx.mcpReq.id });
      return Promise.resolve({ roots: [{ uri: 'file:///work/a' }, { uri: 'file:///work/b', name: 'b' }] });
    });
  }
  const transport: Transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init))
  });
  await client.connect(transport);
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'notifications/message') {
      const params = message.params as { level: string; data: unknown };
      front.seen.push({ kind: 'log', level: params.level, data: params.data });
    } else if ('method' in message && message.method === 'notifications/progress') {
      front.seen.push({ kind: 'progress', progress: (message.params as { progress: number }).progress });
    } else if ('id' in message && ('result' in message || 'error' in message)) front.seen.push({ kind: 'response' });
    receive?.(message);
  };
  return front;
}

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

describe.each(['2025', '2026'] as const)('a gateway to an upstream spoken to in the %s era', (era) => {
  let upstream: FusionApp;
  let gateway: Gateway;
  let app: FusionApp;

  beforeAll(async () => {
    upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [ForwardedTools], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    gateway = await proxy(url!, { namespace: 'up', era, logger: () => undefined });
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

    it("forwards the upstream's log messages in order with its progress, all before the response", async () => {
      const result = await front.client.callTool(
        // A 2026-07-28 client asks for log messages per request; a 2025-era session gets them unless it set a level.
        { name: 'up.chatty', arguments: {}, ...(frontEra === 'modern' ? { _meta: { [LOG_LEVEL_META_KEY]: 'debug' } } : {}) },
        { onprogress: () => undefined }
      );
      expect(textOf(result)).toBe('done');
      expect(front.seen).toEqual([
        { kind: 'log', level: 'info', data: 'first' },
        { kind: 'progress', progress: 50 },
        { kind: 'log', level: 'warning', data: 'second' },
        { kind: 'progress', progress: 90 },
        { kind: 'response' }
      ]);
    });

    if (frontEra === 'modern')
      it('sends no log message to a 2026-07-28 request that asked for none (the front client decides)', async () => {
        const result = await front.client.callTool({ name: 'up.chatty', arguments: {} }, { onprogress: () => undefined });
        expect(textOf(result)).toBe('done');
        expect(front.seen.filter((seen) => seen.kind === 'log')).toEqual([]);
      });

    it("forwards the upstream's sampling request to the front client, and its answer reaches the upstream", async () => {
      const result = await front.client.callTool({ name: 'up.sample', arguments: {} });
      expect(textOf(result)).toBe('the model said hi from the front');
      // 2026-07-28 front: an input_required round (the SDK client answers it under the round's key: the upstream's own when the
      // upstream asked in a round, 2026, the gateway's for a live request, 2025); 2025 front: a live request.
      expect(front.asked).toEqual([
        {
          method: 'sampling/createMessage',
          id: frontEra === 'modern' ? (era === '2026' ? 'sampling' : 'upstream-question') : expect.any(Number)
        }
      ]);
    });

    it("forwards the upstream's roots listing to the front client, and answers it with the front client's roots", async () => {
      const result = await front.client.callTool({ name: 'up.roots', arguments: {} });
      expect(textOf(result)).toBe('file:///work/a,file:///work/b');
      expect(front.asked).toEqual([
        { method: 'roots/list', id: frontEra === 'modern' ? (era === '2026' ? 'roots' : 'upstream-question') : expect.any(Number) }
      ]);
    });

    it('a sampling request the front client cannot take: refused as the upstream would refuse its own client, nothing waits', async () => {
      const mute = await connectFront(app, frontEra, false);
      try {
        const called = mute.client.callTool({ name: 'up.sample', arguments: {} });
        if (era === '2025') {
          // The 2025-era upstream asked (the gateway declared sampling for all): the gateway fails the call with -32021 and cancels upstream.
          await expect(called).rejects.toMatchObject({ code: -32021, message: expect.stringMatching(/sampling/) });
        } else {
          // A 2026-07-28 upstream is told the front client's capabilities per request, and refuses it itself.
          const result = await called;
          expect(result.isError).toBe(true);
          expect(textOf(result)).toMatch(/did not declare the sampling capability/);
        }
        expect(gateway.waitingQuestions).toBe(0);
        // The upstream call was not left waiting: the next call goes through at once.
        expect(textOf(await front.client.callTool({ name: 'up.roots', arguments: {} }))).toBe('file:///work/a,file:///work/b');
      } finally {
        await mute.close();
      }
    });

    if (era === '2026')
      it("an upstream prompt's input_required round reaches the front client (its key kept), and the answer renders it", async () => {
        const rendered = await front.client.getPrompt({ name: 'up.ask_prompt', arguments: {} });
        expect(rendered.messages[0].content).toEqual({ type: 'text', text: 'About gateways' });
        expect(front.asked).toEqual([{ method: 'elicitation/create', id: frontEra === 'modern' ? 'topic_question' : expect.any(Number) }]);
      });

    if (era === '2026')
      it("a tool that requires sampling upstream is refused with the upstream's -32021 for a front client without it", async () => {
        const mute = await connectFront(app, frontEra, false);
        try {
          await expect(mute.client.callTool({ name: 'up.needs_sampling', arguments: {} })).rejects.toMatchObject({
            code: -32021,
            message: expect.stringMatching(/sampling/)
          });
          expect(textOf(await front.client.callTool({ name: 'up.needs_sampling', arguments: {} }))).toBe('ran');
        } finally {
          await mute.close();
        }
      });
  });
});

describe('upstream sessions: a pool with a cap, below the upstream per-caller limit', () => {
  it('serves more 2025-era front sessions than the cap without a 429 upstream, ending the least recently used idle one', async () => {
    // The upstream allows the gateway (one caller) 3 sessions: its shared one, and a pool of 2.
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [ForwardedTools], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false, sessions: { maxSessionsPerCaller: 3 } });
    const gateway = await proxy(url!, { namespace: 'up', era: '2025', maxUpstreamSessions: 2, logger: () => undefined });
    const app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
    const fronts: Front[] = [];
    try {
      const sessions: string[] = [];
      for (let i = 0; i < 6; i++) {
        const front = await connectFront(app, 'legacy');
        fronts.push(front);
        const result = await front.client.callTool({ name: 'up.whoami', arguments: {} });
        expect(result.isError).toBeFalsy();
        sessions.push(textOf(result));
        expect((gateway as unknown as { upstreamSessions: number }).upstreamSessions).toBeLessThanOrEqual(2);
      }
      // Each front session had an upstream session of its own (an evicted one was ended, DELETE, making room).
      expect(new Set(sessions).size).toBe(6);
      // The most recent front session keeps its own.
      const again = await fronts[5].client.callTool({ name: 'up.whoami', arguments: {} });
      expect(textOf(again)).toBe(sessions[5]);
    } finally {
      for (const front of fronts) await front.close();
      await app.close();
      await upstream.close();
    }
  });
});

describe('mcpfusion serve: the front session limits', () => {
  it('applies --max-sessions-per-caller (MCPFUSION_MAX_SESSIONS_PER_CALLER) to the clients in front of the gateway', async () => {
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [ForwardedTools], logger: () => undefined });
    const { url } = await upstream.listen({ transport: 'http', port: 0, handleSignals: false });
    const served = await serveGateway({
      target: url!,
      port: 0,
      env: { MCPFUSION_MAX_SESSIONS_PER_CALLER: '2' },
      log: () => undefined
    });
    const clients: Client[] = [];
    const connect = async () => {
      const client = new Client({ name: 'front', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
      await client.connect(new StreamableHTTPClientTransport(served.url));
      clients.push(client);
      return client;
    };
    try {
      const first = await connect();
      const second = await connect();
      expect(textOf(await first.callTool({ name: 'whoami', arguments: {} }))).not.toBe('none');
      // A third session of the same caller makes room: the least recently used idle one (the second) is ended.
      await connect();
      await expect(second.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow('Session not found');
      expect(textOf(await first.callTool({ name: 'whoami', arguments: {} }))).not.toBe('none');
    } finally {
      for (const client of clients) await client.close();
      await served.app.close();
      await upstream.close();
    }
  });

  it('refuses a session limit that is not a positive integer, naming the variable', async () => {
    await expect(
      serveGateway({ target: 'http://127.0.0.1:9/mcp', port: 0, env: { MCPFUSION_MAX_SESSIONS: 'lots' }, log: () => undefined })
    ).rejects.toThrow('MCPFUSION_MAX_SESSIONS must be a positive integer (got "lots").');
  });
});
