import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FusionApp } from '../../src';
import { connectTestClient } from '../../src/testing';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { recordWire } from '../helpers/wire-log';
import { openLegacySession } from '../helpers/raw-http';

function makeApp() {
  return FusionApp.create({ name: 'desk', version: '1.0.0', tools: [DeskTools], providers: [{ provide: Probe, useValue: new Probe() }] });
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('both protocol eras over a real SDK client, in-process', () => {
  for (const era of ['modern', 'legacy-http', 'legacy-memory'] as const) {
    it(`${era}: lists and calls tools`, async () => {
      const app = makeApp();
      const { client, close } = await connectTestClient(app, { era });
      expect(client.getProtocolEra()).toBe(era === 'modern' ? 'modern' : 'legacy');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo', 'count', 'hang', 'stuck', 'sleepy', 'reconnect', 'lock.hold', 'lock.quick']);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.structuredContent).toEqual({ text: 'hi', session: true });
      const invalid = await client.callTool({ name: 'echo', arguments: { text: 5 } });
      expect(invalid.isError).toBe(true);
      await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
      await close();
      await app.close();
    });
  }
});

describe('Streamable HTTP on 127.0.0.1', () => {
  let app: FusionApp;
  let url: URL;
  beforeEach(async () => {
    app = makeApp();
    ({ url: url! } = (await app.listen({
      transport: 'http',
      port: 0,
      handleSignals: false,
      sessions: { maxSessions: 2, idleTimeoutMs: 60_000, retryIntervalMs: 10 }
    })) as { url: URL });
  });
  afterEach(() => app.close());

  it('binds loopback and serves a 2026-era client', async () => {
    expect(url.hostname).toBe('127.0.0.1');
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(url));
    expect(client.getProtocolEra()).toBe('modern');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'over http' } }))).toContain('over http');
    await client.close();
  });

  it('gives a 2025-era client a session; a deleted or unknown session gets 404', async () => {
    const transport = new StreamableHTTPClientTransport(url);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe('legacy');
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/[0-9a-f-]{36}/);
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'legacy' } }))).toContain('legacy');
    await transport.terminateSession();
    const after = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18'
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' })
    });
    expect(after.status).toBe(404);
    const unknown = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': 'no-such-session',
        'mcp-protocol-version': '2025-06-18'
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' })
    });
    expect(unknown.status).toBe(404);
    await client.close();
  });

  it("answers a session's GET stream at once, before it has anything to send (no wait for the 15 s keep-alive)", async () => {
    const session = await openLegacySession(url, '2025-06-18');
    // The test's 5 s limit bounds this: the headers of a silent stream used to leave with its first keep-alive.
    const stream = await fetch(url, { headers: { accept: 'text/event-stream', ...session } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    await stream.body?.cancel();
  }, 5_000);

  it('resumes a session stream the tool closed: the response arrives after the client reconnects', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.callTool({ name: 'reconnect', arguments: {} }, { onprogress: () => undefined });
    expect(text(result)).toBe('answered after the stream closed');
    await client.close();
  });

  it('bounds the number of open sessions', async () => {
    const clients: Client[] = [];
    for (let i = 0; i < 2; i++) {
      const c = new Client({ name: 't', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(url));
      clients.push(c);
    }
    const third = new Client({ name: 't', version: '1' });
    await expect(third.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(/503|Too many open sessions/);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('refuses a foreign Host or Origin (DNS rebinding protection)', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const badOrigin = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
    expect(badOrigin.status).toBe(403);
    const badHost = await new Promise<number>((resolve, reject) => {
      const req = require('node:http').request(
        { host: '127.0.0.1', port: url.port, path: '/mcp', method: 'POST', headers: { ...headers, host: 'evil.example' } },
        (res: { statusCode: number; resume(): void }) => {
          res.resume();
          resolve(res.statusCode);
        }
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(badHost).toBe(403);
    const wrongPath = await fetch(new URL('/other', url), { method: 'POST', headers, body });
    expect(wrongPath.status).toBe(404);
  });

  it('expires idle sessions', async () => {
    await app.close();
    app = makeApp();
    ({ url: url! } = (await app.listen({ transport: 'http', port: 0, handleSignals: false, sessions: { idleTimeoutMs: 1 } })) as {
      url: URL;
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const opened = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
      })
    });
    const sessionId = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    expect(sessionId).toBeTruthy();
    // Each request resets the 1 ms idle timer, so let a timer turn pass before each look:
    // a 2 ms timer set after the session's 1 ms one always fires after it.
    let status = 0;
    while (status !== 404) {
      await new Promise((r) => setTimeout(r, 2));
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
      });
      status = res.status;
      await res.body?.cancel();
    }
    expect(status).toBe(404);
  });
});

describe('JSON-only (stateless) HTTP mode', () => {
  it('answers both eras with one JSON body and no session', async () => {
    const app = makeApp();
    const { url } = (await app.listen({ transport: 'http', port: 0, responseMode: 'json', handleSignals: false })) as { url: URL };
    for (const mode of ['auto', 'legacy'] as const) {
      const transport = new StreamableHTTPClientTransport(url);
      const client = new Client({ name: 't', version: '1' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      const progress: number[] = [];
      const result = await client.callTool({ name: 'count', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
      expect(text(result)).toBe('counted 3');
      expect(progress).toEqual([]); // JSON mode cannot carry progress
      await client.close();
    }
    const raw = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
      })
    });
    expect(raw.headers.get('content-type')).toContain('application/json');
    expect(raw.headers.get('mcp-session-id')).toBeNull();
    await app.close();
  });
});

describe("2026-07-28 only (legacy: 'reject', for runtimes without a long-lived process)", () => {
  it('serves a 2026-07-28 client with progress, and refuses a 2025-era one naming the version it serves', async () => {
    const app = makeApp();
    const { url } = (await app.listen({ transport: 'http', port: 0, legacy: 'reject', handleSignals: false })) as { url: URL };
    try {
      const modern = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await modern.connect(new StreamableHTTPClientTransport(url));
      const progress: number[] = [];
      const result = await modern.callTool({ name: 'count', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
      expect(text(result)).toBe('counted 3');
      expect(progress).toHaveLength(3);
      await modern.close();
      const legacy = new Client({ name: 't', version: '1' });
      await expect(legacy.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow(/2026-07-28/);
      await legacy.close();
    } finally {
      await app.close();
    }
  });
});

describe('stdio to a child process', () => {
  const command = process.execPath;
  const args = ['-r', 'ts-node/register/transpile-only', 'test/fixtures/stdio-server.ts'];

  for (const mode of ['legacy', 'modern'] as const) {
    it(`${mode}: serves tools over stdin/stdout`, async () => {
      const client = new Client(
        { name: 't', version: '1' },
        mode === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}
      );
      const transport = new StdioClientTransport({ command, args, stderr: 'pipe' });
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe(mode);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo', 'count', 'hang']);
      expect(text(await client.callTool({ name: 'echo', arguments: {} }))).toBe('hello over stdio');
      await client.close();
    }, 30_000);
  }

  it('delivers every progress notification before the response over stdio', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
    const log = recordWire(client);
    const result = await client.callTool({ name: 'count', arguments: { steps: 4 } }, { onprogress: () => undefined });
    expect(text(result)).toBe('counted 4');
    const progress = log.filter((m) => m.method === 'notifications/progress').map((m) => m.params!.progress);
    expect(progress).toEqual([25, 50, 75, 100]);
    expect(log.map((m) => m.method).lastIndexOf('notifications/progress')).toBeLessThan(log.findIndex((m) => m.result !== undefined));
    await client.close();
  }, 30_000);

  it('writes nothing but protocol messages to stdout, and exits at end of input', async () => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.resume();
    child.stdin.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }
      }) + '\n'
    );
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'stdio-fixture' } } });
  }, 30_000);
});
