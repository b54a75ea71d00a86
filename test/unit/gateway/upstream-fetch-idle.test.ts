import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { UpstreamFetch } from '../../../src/gateway/upstream-fetch';

/**
 * The upstream line's keep-alive sockets. An upstream closes a socket it finds idle; a call that
 * reuses it at that moment is reset. The line closes an idle socket first: a second before the
 * upstream's `Keep-Alive: timeout` hint says it would (and after 4 s without a hint). A reset
 * request is never sent again, even on a reused socket: the upstream may have read it, and a
 * `tools/call` sent twice may do its effect twice.
 */
describe('UpstreamFetch keep-alive sockets', () => {
  let server: Server;
  let url: URL;
  let seen: number;
  /** Whether the upstream resets a request: by its place on its socket (1 = the socket's first). */
  let resets: (nth: number) => boolean;
  /** The `Keep-Alive` header the upstream answers with. */
  let keepAlive: string;
  const perSocket = new WeakMap<Socket, number>();
  let sockets: Socket[];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen++;
      const nth = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, nth);
      if (resets(nth)) return void request.socket.resetAndDestroy();
      request.resume();
      request.once('end', () =>
        response.writeHead(200, { 'content-type': 'application/json', 'keep-alive': keepAlive }).end(`{"nth":${nth}}`)
      );
    });
    // The upstream itself would keep an idle socket far longer than its hint says: whoever closes first is the line.
    server.keepAliveTimeout = 60_000;
    server.on('connection', (socket: Socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen = 0;
    sockets = [];
    keepAlive = 'timeout=2';
    resets = () => false;
  });

  async function post(http: UpstreamFetch): Promise<string> {
    const incoming = await http.request(url, 'POST', { 'content-type': 'application/json' }, '{}');
    let text = '';
    for await (const chunk of incoming) text += String(chunk);
    return text;
  }

  it("closes an idle socket before the upstream's hint says the upstream would", async () => {
    const http = new UpstreamFetch();
    try {
      expect(await post(http)).toBe('{"nth":1}');
      expect(sockets).toHaveLength(1);
      const started = Date.now();
      // The line's end of the socket (the hint is 2 s; the line closes it after 1 s idle, the upstream would after 60).
      await new Promise((resolve) => sockets[0]!.once('close', resolve));
      expect(Date.now() - started).toBeLessThan(30_000);
      // The next call takes a fresh socket and is answered.
      expect(await post(http)).toBe('{"nth":1}');
      expect(sockets).toHaveLength(2);
    } finally {
      http.close();
    }
  });

  it('reuses a socket within its idle bound', async () => {
    keepAlive = 'timeout=60';
    const http = new UpstreamFetch();
    try {
      expect(await post(http)).toBe('{"nth":1}');
      expect(await post(http)).toBe('{"nth":2}');
      expect(sockets).toHaveLength(1);
    } finally {
      http.close();
    }
  });

  it('does not send a reset request again, even on a reused socket: the call fails as undici would say it', async () => {
    keepAlive = 'timeout=60';
    resets = (nth) => nth === 2;
    const http = new UpstreamFetch();
    try {
      expect(await post(http)).toBe('{"nth":1}');
      await expect(post(http)).rejects.toThrow('fetch failed');
      // The upstream saw the reset request once.
      expect(seen).toBe(2);
    } finally {
      http.close();
    }
  });
});
