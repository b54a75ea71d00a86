/**
 * The authority of a request is parsed once, strictly, before any URL is built from it (issue
 * 21, finding 5; RFC 9112 §3.2 and §3.2.2): malformed Host values answer 400, not 500; Host
 * values with a path, a query, a backslash, or two Host lines are refused; an absolute-form
 * target's authority is the one checked, not the Host header. Raw bytes over a real socket.
 */
import { connect } from 'node:net';
import { Action, FusionApp, ToolProvider } from '../../src';
import { modernRequest, rawRequestText } from '../helpers/raw-http';

@ToolProvider()
class Ping {
  @Action('ping', { description: 'Answers pong.' })
  ping() {
    return 'pong';
  }
}

let app: FusionApp;
let port: number;
beforeAll(async () => {
  app = FusionApp.create({ tools: [Ping] });
  const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
  port = Number(url.port);
});
afterAll(() => app.close());

/** Sends one request as raw bytes (`hostLines` as given, `target` as the request target); resolves with the status and body. */
function raw(target: string, hostLines: readonly string[], method = 'POST'): Promise<{ status: number; body: string }> {
  const { body, headers } = modernRequest('tools/call', { name: 'ping', arguments: {} });
  const request = rawRequestText({ target, hostLines, headers, body, method, close: true });
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text }));
  });
}

describe('malformed authorities answer 400 (RFC 9112 §3.2)', () => {
  it.each([
    ['userinfo', ['user@localhost']],
    ['a port over 65535', ['localhost:99999']],
    ['two ports', ['localhost:80:81']],
    ['a space', ['local host']],
    ['an unclosed IPv6 literal', ['[::1']],
    ['a percent-encoded NUL', ['local%00host']],
    ['a path', ['localhost/x']],
    ['a query', ['localhost?x']],
    ['a backslash', ['localhost\\evil.com']],
    ['two Host lines', ['localhost', 'evil.com']],
    ['no Host at all', []]
  ])('%s', async (_what, hosts) => {
    const answer = await raw('/mcp', hosts);
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('Bad Request');
  });

  it('request-target * (400)', async () => {
    expect((await raw('*', ['localhost'], 'OPTIONS')).status).toBe(400);
  });

  it('credentials in an absolute-form target (400)', async () => {
    expect((await raw(`http://user:secret@localhost:${port}/mcp`, ['localhost'])).status).toBe(400);
  });
});

describe('an absolute-form target’s authority wins over the Host header (RFC 9112 §3.2.2)', () => {
  it('a target naming another host is refused even with a local Host header (403)', async () => {
    expect((await raw('http://evil.example/mcp', [`localhost:${port}`])).status).toBe(403);
  });

  it('a target naming this host is served whatever the Host header says', async () => {
    const answer = await raw(`http://localhost:${port}/mcp`, ['evil.example']);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('pong');
  });

  it('well-formed requests are still served: a name, an IPv4 address, an IPv6 literal, with ports', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      const answer = await raw('/mcp', [host]);
      expect(answer.status).toBe(200);
    }
  });
});
