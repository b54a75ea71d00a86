import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp, proxy } from '../../src';
import type { Gateway } from '../../src/advanced';
import { UPSTREAM_LIMITS } from '../../src/gateway/guards/limits';
import { listenLoopback } from '../helpers/loopback-server';

/**
 * The gateway sends a 2025-era HTTP upstream's tool calls itself (src/gateway/direct-call.ts),
 * reading the answer without the SDK client. An upstream written for it, raw JSON-RPC over
 * node:http on 127.0.0.1, answers each way the transport allows: a JSON body; an SSE stream
 * dribbled a few bytes at a time with CRLF line ends, progress before the answer; a stream
 * closed after its priming event and resumed with `Last-Event-ID` (SSE polling); noise before the
 * answer; an answer over the bound; a malformed result; a JSON-RPC error. Real SDK clients at the
 * front, in both eras.
 */

type Json = Record<string, unknown>;

const tools = ['json', 'dribble', 'poll', 'noise', 'huge', 'malformed', 'refuse'].map((name) => ({
  name,
  description: `answers ${name}`,
  inputSchema: { type: 'object' }
}));

/** What the upstream saw: the GETs that resumed a stream (their Last-Event-ID), and the calls. */
interface Seen {
  resumed: string[];
  calls: string[];
}

function sseEvent(message: unknown, id?: string): string {
  return `${id !== undefined ? `id: ${id}\r\n` : ''}event: message\r\ndata: ${JSON.stringify(message)}\r\n\r\n`;
}

async function dribble(response: ServerResponse, text: string, size: number): Promise<void> {
  for (let at = 0; at < text.length; at += size) {
    response.write(text.slice(at, at + size));
    // Each piece leaves in its own turn, so that the gateway reads the stream in pieces.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  response.end();
}

async function rawUpstream(): Promise<{ url: URL; seen: Seen; close(): Promise<void> }> {
  const seen: Seen = { resumed: [], calls: [] };
  /** The answer of a polled call, kept for the GET that resumes its stream. */
  const polled = new Map<string, Json>();
  const answer = (id: unknown, result: Json): Json => ({ jsonrpc: '2.0', id, result });
  const text = (value: string): Json => ({ content: [{ type: 'text', text: value }] });
  const server: HttpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method === 'GET') {
      const last = request.headers['last-event-id'];
      if (typeof last !== 'string' || !polled.has(last)) return void response.writeHead(405).end();
      seen.resumed.push(last);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(sseEvent(polled.get(last), `${last}-2`));
      return;
    }
    if (request.method === 'DELETE') return void response.writeHead(200).end();
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method?: string; params?: Json };
      if (message.id === undefined || message.method === undefined) return void response.writeHead(202).end();
      const json = (value: unknown): void => {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'raw-session' });
        response.end(JSON.stringify(value));
      };
      if (message.method === 'initialize')
        return json(
          answer(message.id, {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'raw-upstream', version: '1.0.0' }
          })
        );
      if (message.method === 'tools/list') return json(answer(message.id, { tools }));
      if (message.method !== 'tools/call') return json({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } });
      const name = String(message.params?.name);
      seen.calls.push(name);
      const token = (message.params?._meta as Json | undefined)?.progressToken;
      if (name === 'json') return json(answer(message.id, text('as json')));
      if (name === 'refuse') return json({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'not today' } });
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      if (name === 'dribble') {
        const progress = [1, 2, 3].map((step) => ({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress: step, total: 3, message: `step ${step} ✓` }
        }));
        return void dribble(response, [...progress.map((p) => sseEvent(p)), sseEvent(answer(message.id, text('dribbled ✓')))].join(''), 7);
      }
      if (name === 'poll') {
        // A priming event (an id, no data), then the stream ends: the client resumes it with a GET.
        const id = `poll-${seen.calls.length}`;
        polled.set(id, answer(message.id, text('after a poll')));
        return void response.end(`id: ${id}\r\nretry: 0\r\ndata: \r\n\r\n`);
      }
      if (name === 'noise') {
        response.write(': a comment\n\ndata: this is no json\n\ndata: {"no":"envelope"}\n\n');
        response.write(sseEvent({ jsonrpc: '2.0', id: 'never-sent', result: {} }));
        return void response.end(sseEvent(answer(message.id, text('through the noise'))));
      }
      if (name === 'huge') {
        const big = 'x'.repeat(UPSTREAM_LIMITS.maxMessageBytes + 1024);
        return void response.end(sseEvent(answer(message.id, text(big))));
      }
      // malformed: content is no array
      response.end(sseEvent(answer(message.id, { content: 'not an array' })));
    });
  });
  return { ...(await listenLoopback(server)), seen };
}

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

describe('a 2025-era HTTP upstream, its calls sent by the gateway itself', () => {
  let upstream: Awaited<ReturnType<typeof rawUpstream>>;
  let gateway: Gateway;
  let app: FusionApp;
  const logged: string[] = [];

  beforeAll(async () => {
    upstream = await rawUpstream();
    gateway = await proxy(upstream.url, { namespace: 'up', era: '2025', logger: (line) => logged.push(line) });
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

    it('gets an answer sent as a JSON body', async () => {
      expect(textOf(await client.callTool({ name: 'up.json', arguments: {} }))).toBe('as json');
    });

    it('gets progress and the answer of a stream read in pieces (CRLF line ends, characters split across chunks), in order', async () => {
      const updates: unknown[] = [];
      const result = await client.callTool({ name: 'up.dribble', arguments: {} }, { onprogress: (update) => updates.push(update) });
      expect(textOf(result)).toBe('dribbled ✓');
      expect(updates).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step} ✓` })));
    });

    it('gets the answer of a stream the upstream closed after its priming event (resumed with Last-Event-ID)', async () => {
      const before = upstream.seen.resumed.length;
      expect(textOf(await client.callTool({ name: 'up.poll', arguments: {} }))).toBe('after a poll');
      expect(upstream.seen.resumed.length).toBe(before + 1);
    });

    it('gets the answer past what is no message of the call (comments, no JSON, no envelope, an answer to an id never sent)', async () => {
      expect(textOf(await client.callTool({ name: 'up.noise', arguments: {} }))).toBe('through the noise');
      expect(logged.join('\n')).toMatch(/sent something the gateway ignored/);
    });

    it('is refused an answer over the bound, naming it; the next call is served', async () => {
      const result = await client.callTool({ name: 'up.huge', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`over ${UPSTREAM_LIMITS.maxMessageBytes} bytes`);
      expect(textOf(await client.callTool({ name: 'up.json', arguments: {} }))).toBe('as json');
    });

    it('is refused a malformed result, saying what is wrong', async () => {
      const result = await client.callTool({ name: 'up.malformed', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('`content` is not an array');
    });

    it("gets the upstream's JSON-RPC error in its words", async () => {
      const result = await client.callTool({ name: 'up.refuse', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('(-32000): not today');
    });
  });
});
