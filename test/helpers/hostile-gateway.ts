import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { FusionApp, proxyServers, type ServerEntry, type UpstreamHealth, type UpstreamSet } from '../../src';

/**
 * The hostile-upstream tests' bench: a gateway (`proxyServers`) with a well-behaved upstream
 * (`good`, the gateway fixture over stdio) beside a hostile one (`bad`), and real SDK clients at
 * the front that count every request the gateway makes of them.
 */

const ROOT = join(__dirname, '..', '..');
/** The hostile server over stdio (`node HOSTILE <mode>`). */
export const HOSTILE = join(ROOT, 'build', 'test', 'fixtures', 'hostile-upstreams', 'hostile-stdio.js');
/** The well-behaved one. */
export const GOOD = join(ROOT, 'build', 'test', 'fixtures', 'gateway-upstream.js');

/** A front client and what it was asked. */
export interface Front {
  readonly client: Client;
  /** Requests the gateway made of this client (elicitation, sampling), by method. */
  readonly asked: string[];
  /** Log messages and progress notices it received. */
  readonly notices: string[];
}

/** One bench: the app, its set, its front clients, its log. */
export interface Bench {
  readonly app: FusionApp;
  readonly set: UpstreamSet;
  readonly logs: string[];
  front(): Promise<Front>;
  health(): UpstreamHealth[];
  close(): Promise<void>;
}

/** A log that resolves waiters on the first line containing their text. */
export function gatewayLog(): { lines: string[]; log: (line: string) => void; logged: (text: string) => Promise<string> } {
  const lines: string[] = [];
  const waiters: Array<{ text: string; resolve: (line: string) => void }> = [];
  return {
    lines,
    log: (line) => {
      lines.push(line);
      for (const waiter of waiters.splice(0))
        if (line.includes(waiter.text)) waiter.resolve(line);
        else waiters.push(waiter);
    },
    logged: (text) => {
      const seen = lines.find((line) => line.includes(text));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ text, resolve }));
    }
  };
}

/** Starts the bench; `bad` is the hostile upstream's config entry. */
export async function bench(
  bad: ServerEntry,
  log: ReturnType<typeof gatewayLog>,
  concurrency?: { maxActive: number; maxQueue: number }
): Promise<Bench> {
  const set = await proxyServers(
    { mcpServers: { good: { command: process.execPath, args: [GOOD] }, bad } },
    // A slow machine must not turn a bound broken into a connect timeout: the bound is what is shown.
    { logger: log.log, retryMs: 600_000, watch: false, connectTimeoutMs: 60_000 }
  );
  const app = FusionApp.create({
    name: 'front',
    version: '1.0.0',
    tools: [],
    gateways: [set],
    logger: log.log,
    ...(concurrency ? { concurrency } : {})
  });
  const handler = app.createHttpHandler();
  const clients: Client[] = [];
  return {
    app,
    set,
    logs: log.lines,
    health: () => set.health(),
    async front() {
      const client = new Client({ name: 'front', version: '1.0.0' }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
      const asked: string[] = [];
      const notices: string[] = [];
      client.setRequestHandler('elicitation/create', async () => {
        asked.push('elicitation/create');
        return { action: 'accept', content: { ok: true } };
      });
      client.setRequestHandler('sampling/createMessage', async () => {
        asked.push('sampling/createMessage');
        return { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'front' };
      });
      client.setNotificationHandler('notifications/message', () => void notices.push('log'));
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) })
      );
      clients.push(client);
      return { client, asked, notices };
    },
    async close() {
      for (const client of clients) await client.close().catch(() => undefined);
      await handler.close();
      await app.close();
      await set.close();
    }
  };
}

/** The text of a result's first block. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content[0]?.type === 'text' ? content[0].text : '';
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Memory in use after a full collection (the heap and array buffers: a read buffer of the transport is one). */
export function memoryInUse(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** A mebibyte. */
export const MB = 1024 * 1024;
