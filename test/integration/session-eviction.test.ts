/**
 * 2025-era sessions per caller make room (issue 42, item 6): without auth every client is the same
 * caller, and a client that never ends its sessions (the official Inspector) must keep connecting.
 * At `sessions.maxSessionsPerCaller`, a new session ends the caller's oldest idle one (no request in
 * flight); only when every one is busy is the new one refused with 429. Real SDK clients over HTTP on 127.0.0.1.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Action, FusionApp, ToolProvider } from '../../src';

/** Calls of `slow.wait` in progress: each resolves `started`, then waits for the test to release it. */
let started: Array<() => void> = [];
let release: () => void = () => undefined;
let gate = Promise.resolve();

@ToolProvider()
class Slow {
  @Action('slow.wait', { description: 'Runs until the test lets it finish.' })
  async wait() {
    started.shift()?.();
    await gate;
    return 'done';
  }

  @Action('slow.now', { description: 'Answers at once.' })
  now() {
    return 'now';
  }
}

async function start(maxSessionsPerCaller: number) {
  const app = FusionApp.create({ name: 'eviction', version: '1.0.0', tools: [Slow], logger: () => undefined });
  const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false, sessions: { maxSessionsPerCaller } })) as {
    url: URL;
  };
  const clients: Client[] = [];
  const connect = async () => {
    const client = new Client({ name: 'inspector', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    client.onerror = () => undefined; // the GET stream of an ended session fails: expected here
    const transport = new StreamableHTTPClientTransport(url);
    clients.push(client);
    await client.connect(transport);
    return { client, sessionId: transport.sessionId! };
  };
  const close = async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await app.close();
  };
  return { url, connect, close };
}

/** The status of a raw `ping` on a session. */
async function pingStatus(url: URL, sessionId: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25'
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' })
  });
  await response.body?.cancel();
  return response.status;
}

/** A promise for the start of the next `slow.wait` call. */
function nextStart(): Promise<void> {
  return new Promise((resolve) => started.push(resolve));
}

beforeEach(() => {
  started = [];
  gate = new Promise((resolve) => (release = resolve));
});
afterEach(() => release());

describe('2025-era sessions at maxSessionsPerCaller', () => {
  it('with the limit at 3, 8 clients that connect and go idle all connect; the 5 oldest sessions are the ones ended', async () => {
    const server = await start(3);
    try {
      const opened = [];
      for (let i = 0; i < 8; i++) opened.push(await server.connect());
      for (const { sessionId } of opened.slice(0, 5)) expect(await pingStatus(server.url, sessionId)).toBe(404);
      for (const { client, sessionId } of opened.slice(5)) {
        expect(await pingStatus(server.url, sessionId)).toBe(200);
        expect(await client.callTool({ name: 'slow.now', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'now' }] });
      }
    } finally {
      release();
      await server.close();
    }
  });

  it('when every session has a call in flight, the next is refused with 429; once one is idle again, it makes room', async () => {
    const server = await start(2);
    try {
      const busy = await Promise.all([server.connect(), server.connect()]);
      const starts = [nextStart(), nextStart()];
      const calls = busy.map(({ client }) => client.callTool({ name: 'slow.wait', arguments: {} }));
      for (const call of calls) call.catch(() => undefined); // a failed expectation below must not leave it unhandled at close
      await Promise.all(starts);
      await expect(server.connect()).rejects.toThrow(
        'Too many sessions for this caller: 2 are open (sessions.maxSessionsPerCaller). Close one (DELETE) or let one expire, then retry.'
      );
      release();
      for (const call of calls) expect(await call).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
      const third = await server.connect();
      expect(await pingStatus(server.url, third.sessionId)).toBe(200);
    } finally {
      release();
      await server.close();
    }
  });

  it("the ended session's next request gets 404, through the client too; the busy session is the one kept", async () => {
    const server = await start(2);
    try {
      const first = await server.connect();
      const second = await server.connect();
      const starting = nextStart();
      const call = first.client.callTool({ name: 'slow.wait', arguments: {} });
      call.catch(() => undefined); // a failed expectation below must not leave it unhandled at close
      await starting;
      // The first session is the older one, but busy: the second, idle, is ended.
      await server.connect();
      expect(await pingStatus(server.url, second.sessionId)).toBe(404);
      await expect(second.client.callTool({ name: 'slow.now', arguments: {} })).rejects.toThrow(
        'Session not found: start a new session with initialize'
      );
      release();
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
      expect(await pingStatus(server.url, first.sessionId)).toBe(200);
    } finally {
      release();
      await server.close();
    }
  });
});
