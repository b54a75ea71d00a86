import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Action, FusionApp, ToolProvider, progress, proxy } from '../../src';
import type { Gateway } from '../../src/advanced';

/**
 * Progress kept as given: an upstream that is not this framework (the bare SDK v2 server, over
 * HTTP on 127.0.0.1) reports `progress` 1…7 of `total` 7 with messages, and one count with no
 * total; the front client, in either era, through a gateway speaking either era upstream, sees
 * exactly those values, in order, before the response. The same for a handler of this framework
 * that yields counts (`progress({ progress, total, message })`) directly.
 */

/** What the front client saw, in arrival order at its transport. */
type Seen = { kind: 'progress'; params: Record<string, unknown> } | { kind: 'response' };

const STEPS = 7;

/** The notifications the upstream sends, as it sends them (the front must see exactly these, token aside). */
const SENT: Array<Record<string, unknown>> = [
  ...Array.from({ length: STEPS }, (_, i) => ({ progress: i + 1, total: STEPS, message: `file ${i + 1} of ${STEPS}` })),
  { progress: 7.5, message: 'tidying up' }
];

/** The bare SDK server: `count` sends {@link SENT} on the request's progress token, then answers. */
async function sdkUpstream(): Promise<{ url: URL; close(): Promise<void> }> {
  const build = (): McpServer => {
    const server = new McpServer({ name: 'sdk-upstream', version: '1.0.0' });
    server.registerTool(
      'count',
      { description: 'Counts to 7, reporting each step', inputSchema: fromJsonSchema({ type: 'object', properties: {} }) },
      async (_args, ctx) => {
        const progressToken = ctx.mcpReq._meta?.progressToken;
        if (progressToken !== undefined)
          for (const params of SENT)
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...params } as never });
        return { content: [{ type: 'text', text: 'counted' }] };
      }
    );
    return server;
  };
  const handle = toNodeHandler(createMcpHandler(build));
  const http: HttpServer = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      })
  };
}

@ToolProvider()
class CountingTools {
  @Action('files.copy', { description: 'Copies 7 files, reporting each as a count' })
  async *copy(): AsyncGenerator<ReturnType<typeof progress>, string, undefined> {
    for (const params of SENT) yield progress(params as { progress: number; total?: number; message?: string });
    return 'copied';
  }
}

async function connectFront(app: FusionApp, era: 'modern' | 'legacy'): Promise<{ client: Client; seen: Seen[]; close(): Promise<void> }> {
  const handler = app.createHttpHandler();
  const client = new Client(
    { name: 'front', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } }
  );
  const seen: Seen[] = [];
  const transport: Transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
    fetch: (url, init) => handler.fetch(new Request(url, init))
  });
  await client.connect(transport);
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && message.method === 'notifications/progress') {
      const { progressToken: _token, ...params } = message.params as Record<string, unknown>;
      seen.push({ kind: 'progress', params });
    } else if ('id' in message && ('result' in message || 'error' in message)) seen.push({ kind: 'response' });
    receive?.(message);
  };
  return {
    client,
    seen,
    close: async () => {
      await client.close();
      await handler.close();
    }
  };
}

const expected: Seen[] = [...SENT.map((params) => ({ kind: 'progress' as const, params })), { kind: 'response' }];

describe.each(['2025', '2026'] as const)("a gateway speaking %s to a bare SDK upstream keeps the upstream's progress as given", (era) => {
  let upstream: Awaited<ReturnType<typeof sdkUpstream>>;
  let gateway: Gateway;
  let app: FusionApp;

  beforeAll(async () => {
    upstream = await sdkUpstream();
    gateway = await proxy(upstream.url, { namespace: 'up', era, logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it.each(['modern', 'legacy'] as const)(
    'a %s front client sees progress 1…7 of 7 with their messages, then a count with no total, before the response',
    async (frontEra) => {
      const front = await connectFront(app, frontEra);
      try {
        const updates: unknown[] = [];
        const result = await front.client.callTool({ name: 'up.count', arguments: {} }, { onprogress: (update) => updates.push(update) });
        expect(result.content).toEqual([{ type: 'text', text: 'counted' }]);
        expect(front.seen).toEqual(expected);
        // What the SDK's onprogress hands the front application: the same values.
        expect(updates).toEqual(SENT);
      } finally {
        await front.close();
      }
    }
  );
});

describe('a handler yielding counts', () => {
  let app: FusionApp;
  beforeAll(() => {
    app = FusionApp.create({ name: 'counts', version: '1.0.0', tools: [CountingTools], logger: () => undefined });
  });
  afterAll(() => app.close());

  it.each(['modern', 'legacy'] as const)('reaches a %s client as given, in order, before the response', async (frontEra) => {
    const front = await connectFront(app, frontEra);
    try {
      await front.client.callTool({ name: 'files.copy', arguments: {} }, { onprogress: () => undefined });
      expect(front.seen).toEqual(expected);
    } finally {
      await front.close();
    }
  });

  it('reaches the test harness as given (total undefined where the count has none)', async () => {
    const got: unknown[] = [];
    await app.callTool('files.copy', {}, { onProgress: (value, message, total) => got.push({ value, message, total }) });
    expect(got).toEqual(SENT.map((params) => ({ value: params.progress, message: params.message, total: params.total })));
  });

  it('refuses a count that is not a finite number (outside production)', async () => {
    expect(() => progress({ progress: 1 })).not.toThrow();
    const bad = FusionApp.create({ name: 'bad', version: '1.0.0', tools: [BadCounts], logger: () => undefined });
    try {
      const result = await bad.callTool('bad.count', {}, { onProgress: () => undefined });
      expect(result.isError).toBe(true);
    } finally {
      await bad.close();
    }
  });
});

@ToolProvider()
class BadCounts {
  @Action('bad.count', { description: 'Yields a count of NaN' })
  async *count(): AsyncGenerator<ReturnType<typeof progress>, string, undefined> {
    yield progress({ progress: Number.NaN, total: 3 });
    return 'never';
  }
}
