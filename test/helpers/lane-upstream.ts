import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { UPSTREAM_LIMITS } from '../../src/gateway/guards/limits';
import { listenLoopback } from './loopback-server';

/**
 * A raw JSON-RPC upstream for the front fast lanes' tests (`test/integration/gateway-front-lane*.test.ts`):
 * written by hand over node:http, so each tool's answer is exactly the bytes a case needs. It
 * speaks just enough of the 2025-era streamable HTTP transport for the gateway's client
 * (initialize, tools/list, tools/call, notifications). Its tools, each taking `{ text }`:
 * - `echo`: answers the text (JSON);
 * - `work`: three progress notifications with total and message, then `done` (one SSE body);
 * - `hang`: one progress notification, then never answers (its close is recorded);
 * - `steps`: progress 1, then as the test drives it through `seen.stepping`;
 * - `refuse`: a JSON-RPC error -32000 `not today` with data; `failing`: an `isError` result;
 * - `shaped`: a result with structured content and `_meta`;
 * - `crash`: one progress notification, then the connection is destroyed mid-stream;
 * - `huge`: a result over the gateway's message bound.
 */

type Json = Record<string, unknown>;

/** What the upstream saw, and the hooks a test waits on. */
export interface LaneUpstreamSeen {
  /** Request ids the upstream was told were cancelled (`notifications/cancelled`). */
  cancelled: unknown[];
  /** Calls (by their `text`) whose request the gateway closed before the answer. */
  closed: string[];
  /** Resolves the next `hang` call's arrival. */
  hanging?: () => void;
  /** Resolves when a `hang` or `steps` call's request is closed. */
  onClosed?: () => void;
  /** Takes the next `steps` call: `step(n)` writes its progress n (of 3), `finish()` its result. */
  stepping?: (controls: { step(n: number): void; finish(): void }) => void;
}

export type LaneUpstreamTool = 'echo' | 'work' | 'hang' | 'steps' | 'refuse' | 'failing' | 'shaped' | 'crash' | 'huge';

const SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

/** One SSE event carrying a JSON-RPC message. */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Starts the upstream on 127.0.0.1, listing `names` (the tools a test file uses). */
export async function laneUpstream(
  names: readonly LaneUpstreamTool[]
): Promise<{ url: URL; seen: LaneUpstreamSeen; close(): Promise<void> }> {
  const tools = names.map((name) => ({ name, description: name, inputSchema: SCHEMA }));
  const seen: LaneUpstreamSeen = { cancelled: [], closed: [] };
  const answer = (id: unknown, result: Json): Json => ({ jsonrpc: '2.0', id, result });
  const server: HttpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST') return void response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method?: string; params?: Json };
      if (message.method === 'notifications/cancelled') seen.cancelled.push(message.params?.requestId);
      if (message.id === undefined || message.method === undefined) return void response.writeHead(202).end();
      const json = (value: unknown): void => {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'raw-session' });
        response.end(JSON.stringify(value));
      };
      if (message.method === 'initialize')
        return json(
          answer(message.id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } })
        );
      if (message.method === 'tools/list') return json(answer(message.id, { tools }));
      if (message.method !== 'tools/call') return json({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } });
      const name = String(message.params?.name);
      const args = (message.params?.arguments ?? {}) as Json;
      const token = (message.params?._meta as Json | undefined)?.progressToken;
      const text = (value: string): Json => ({ content: [{ type: 'text', text: value }] });
      const progress = (n: number, extra: Json = {}): string =>
        sseEvent({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n, ...extra } });
      const onClose = (finished: () => boolean): void =>
        void response.on('close', () => {
          if (finished()) return;
          seen.closed.push(String(args.text));
          seen.onClosed?.();
        });
      switch (name) {
        case 'echo':
          return json(answer(message.id, text(String(args.text))));
        case 'shaped':
          return json(answer(message.id, { ...text('shaped'), structuredContent: { n: 1 }, _meta: { 'x/y': 1 } }));
        case 'refuse':
          return json({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'not today', data: { why: 'x' } } });
        case 'failing':
          return json(answer(message.id, { ...text('it failed'), isError: true }));
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      switch (name) {
        case 'work': {
          const steps = [1, 2, 3].map((step) => progress(step, { total: 3, message: `step ${step}` }));
          return void response.end([...steps, sseEvent(answer(message.id, text('done')))].join(''));
        }
        case 'hang':
          response.write(progress(1));
          onClose(() => false);
          return void seen.hanging?.();
        case 'steps': {
          let finished = false;
          const step = (n: number): void => void response.write(progress(n, { total: 3 }));
          onClose(() => finished);
          step(1);
          return void seen.stepping?.({
            step,
            finish: () => {
              finished = true;
              response.end(sseEvent(answer(message.id, text(`done ${String(args.text)}`))));
            }
          });
        }
        case 'crash':
          response.write(progress(1));
          return void setImmediate(() => request.socket.destroy());
        default: // huge
          response.end(sseEvent(answer(message.id, text('x'.repeat(UPSTREAM_LIMITS.maxMessageBytes + 1024)))));
      }
    });
  });
  return { ...(await listenLoopback(server)), seen };
}
