import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { UpstreamFetch } from '../../../src/gateway/upstream-fetch';

/**
 * The upstream line's keep-alive sockets: a request on a kept-alive socket that the upstream
 * resets as it is reused (its idle close and the request crossed) is sent once more on a fresh
 * socket; a reset on a fresh socket is not retried (the upstream is down, or refuses).
 */
describe('UpstreamFetch on a kept-alive socket reset as it is reused', () => {
  let server: Server;
  let url: URL;
  let seen: number;
  /** Whether the upstream resets a request: by its place on its socket (1 = the socket's first). */
  let resets: (nth: number) => boolean;
  const perSocket = new WeakMap<Socket, number>();

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen++;
      const nth = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, nth);
      if (resets(nth)) return void request.socket.resetAndDestroy();
      request.resume();
      request.once('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(`{"nth":${nth}}`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => (seen = 0));

  async function post(http: UpstreamFetch): Promise<string> {
    const incoming = await http.request(url, 'POST', { 'content-type': 'application/json' }, '{}');
    let text = '';
    for await (const chunk of incoming) text += String(chunk);
    return text;
  }

  it('sends it once more on a fresh socket, and the call is answered', async () => {
    resets = (nth) => nth === 2;
    const http = new UpstreamFetch();
    try {
      expect(await post(http)).toBe('{"nth":1}');
      // The second request reuses the socket; the upstream resets it; the retry is a fresh socket's first.
      expect(await post(http)).toBe('{"nth":1}');
      expect(seen).toBe(3);
    } finally {
      http.close();
    }
  });

  it('does not retry a reset on a fresh socket: the call fails as undici would say it', async () => {
    resets = () => true;
    const http = new UpstreamFetch();
    try {
      await expect(post(http)).rejects.toThrow('fetch failed');
      expect(seen).toBe(1);
    } finally {
      http.close();
    }
  });
});
