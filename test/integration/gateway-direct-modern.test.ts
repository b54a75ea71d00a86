import { createServer, type Server as HttpServer } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { FusionApp, proxy } from '../../src';
import type { Gateway } from '../../src/advanced';
import { UPSTREAM_LIMITS } from '../../src/gateway/guards/limits';
import { listenLoopback } from '../helpers/loopback-server';

/**
 * The gateway sends a 2026-07-28 HTTP upstream's tool calls itself (src/gateway/direct-modern.ts),
 * as it does a 2025-era one's: the bare SDK v2 server (per-request, stateless) over HTTP on
 * 127.0.0.1 is the upstream, real SDK clients of both eras are at the front. The upstream records
 * each `tools/call` it gets (its JSON-RPC id: the gateway's own `gw-call:N` when it went out
 * directly, and its `Mcp-Name` header), so each test also shows which path a call took.
 */

/** What the upstream saw of each tools/call: its id and its Mcp-Name header. */
interface SeenCall {
  readonly id: unknown;
  readonly name: string | undefined;
}

const PROGRESS = [1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step} ✓` }));

/** Resolvers the `wait` tool settles: when it starts, and when its request's signal aborts. */
interface WaitProbe {
  started: () => void;
  aborted: () => void;
}

/** What the tests change of the upstream: the `wait` tool's probe; `gone` disables the tool of that name (listed at first). */
interface Probe {
  wait?: WaitProbe;
  gone?: boolean;
}

async function sdkUpstream(probe: Probe): Promise<{ url: URL; seen: SeenCall[]; close(): Promise<void> }> {
  const seen: SeenCall[] = [];
  const noArgs = fromJsonSchema({ type: 'object', properties: {} });
  const build = (): McpServer => {
    const server = new McpServer({ name: 'sdk-upstream', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } } }) }, (args) => ({
      content: [{ type: 'text', text: String((args as { text?: unknown }).text) }]
    }));
    server.registerTool('count', { inputSchema: noArgs }, async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      if (progressToken !== undefined)
        for (const params of PROGRESS) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...params } });
      return { content: [{ type: 'text', text: 'counted' }] };
    });
    server.registerTool('wait', { inputSchema: noArgs }, async (_args, ctx) => {
      const signal = ctx.mcpReq.signal;
      await new Promise<void>((resolve) => {
        signal.addEventListener('abort', () => resolve(), { once: true });
        probe.wait?.started();
      });
      probe.wait?.aborted();
      return { content: [{ type: 'text', text: 'cancelled' }] };
    });
    server.registerTool('fail', { inputSchema: noArgs }, () => {
      throw new Error('the upstream tool broke');
    });
    const gone = server.registerTool('gone', { inputSchema: noArgs }, () => ({ content: [{ type: 'text', text: 'still here' }] }));
    if (probe.gone) gone.disable();
    server.registerTool('huge', { inputSchema: noArgs }, () => ({
      content: [{ type: 'text', text: 'x'.repeat(UPSTREAM_LIMITS.maxMessageBytes + 1024) }]
    }));
    return server;
  };
  const handle = toNodeHandler(createMcpHandler(build));
  const http: HttpServer = createServer((req, res) => {
    if (req.headers['mcp-method'] === 'tools/call') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('end', () => {
        const header = req.headers['mcp-name'];
        seen.push({ id: (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id, name: header as string | undefined });
      });
    }
    void handle(req, res);
  });
  return { ...(await listenLoopback(http)), seen };
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

describe('a 2026-07-28 HTTP upstream (the bare SDK server), its calls sent by the gateway itself', () => {
  const probe: Probe = {};
  let upstream: Awaited<ReturnType<typeof sdkUpstream>>;
  let gateway: Gateway;
  let app: FusionApp;

  beforeAll(async () => {
    upstream = await sdkUpstream(probe);
    gateway = await proxy(upstream.url, { namespace: 'up', era: '2026', logger: () => undefined });
    app = FusionApp.create({ name: 'front', version: '1.0.0', tools: [], gateways: [gateway], logger: () => undefined });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  describe.each(['modern', 'legacy'] as const)('a %s front client', (era) => {
    let client: Client;
    let handler: ReturnType<FusionApp['createHttpHandler']>;
    beforeAll(async () => {
      handler = app.createHttpHandler();
      client = new Client(
        { name: 'front', version: '1.0.0' },
        { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } }
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
      );
    });
    afterAll(async () => {
      await client?.close();
      await handler?.close();
    });

    it('gets its answer, the call sent by the gateway itself with the headers the SDK would send', async () => {
      const before = upstream.seen.length;
      expect(textOf(await client.callTool({ name: 'up.echo', arguments: { text: 'straight through ✓' } }))).toBe('straight through ✓');
      const sent = upstream.seen.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.id).toEqual(expect.stringMatching(/^gw-call:\d+$/));
      expect(sent[0]!.name).toBe('echo');
    });

    it("gets the upstream's progress as given (progress, total, message), in order, all before the answer", async () => {
      const updates: unknown[] = [];
      let answered = false;
      const result = await client.callTool(
        { name: 'up.count', arguments: {} },
        { onprogress: (update) => void updates.push(answered ? 'after the answer' : update) }
      );
      answered = true;
      expect(textOf(result)).toBe('counted');
      expect(updates).toEqual(PROGRESS);
    });

    it('cancels the upstream call when the front call is cancelled', async () => {
      let started!: () => void;
      let aborted!: () => void;
      const upstreamStarted = new Promise<void>((resolve) => (started = resolve));
      const upstreamAborted = new Promise<void>((resolve) => (aborted = resolve));
      probe.wait = { started, aborted };
      const controller = new AbortController();
      const call = client.callTool({ name: 'up.wait', arguments: {} }, { signal: controller.signal });
      await upstreamStarted;
      controller.abort(new Error('the user gave up'));
      await expect(call).rejects.toThrow();
      await upstreamAborted;
      probe.wait = undefined;
      // The connection serves the next call.
      expect(textOf(await client.callTool({ name: 'up.echo', arguments: { text: 'next' } }))).toBe('next');
    });

    it("gets the upstream tool's failure as a tool error, in its words", async () => {
      const result = await client.callTool({ name: 'up.fail', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('the upstream tool broke');
    });

    it("gets the upstream's JSON-RPC refusal as a tool error naming its code, in its words", async () => {
      probe.gone = true;
      try {
        const result = await client.callTool({ name: 'up.gone', arguments: {} });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/refused the call \(-32602\).*gone/);
      } finally {
        probe.gone = false;
      }
    });

    it('is refused an answer over the bound, naming it; the next call is served', async () => {
      const result = await client.callTool({ name: 'up.huge', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
      expect(textOf(await client.callTool({ name: 'up.echo', arguments: { text: 'after' } }))).toBe('after');
    });
  });
});
