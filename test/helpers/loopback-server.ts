import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A test's HTTP server on a free loopback port: its MCP endpoint's URL, and a close that ends its connections too. */
export interface LoopbackServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** Listens `server` on 127.0.0.1 at a port the system picks; `path` is the endpoint the URL names. */
export async function listenLoopback(server: Server, path = '/mcp'): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${path}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })
  };
}
