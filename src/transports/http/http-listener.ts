import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EarlyHttpServer } from './early-server';
import type { FusionHttpHandler } from './fusion-http-handler';

/** A listening HTTP server. */
export interface HttpListener {
  /** The endpoint URL, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: URL;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves a handler over node:http on `host` (127.0.0.1 by default) and `port` (0 = any free port). */
export async function listenHttp(
  handler: FusionHttpHandler,
  options: {
    host: string;
    port: number;
    path: string;
    maxHeaderSize?: number;
    idleConnectionTimeoutMs?: number;
    /** A server already listening (see `EarlyHttpServer`): served on instead of a new one; `port` and `maxHeaderSize` were its own. */
    early?: EarlyHttpServer;
  }
): Promise<HttpListener> {
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    // A request arrived: the connection is in use (an event stream may stay open for hours); Node's
    // keep-alive timeout takes over once the response is done.
    req.socket.setTimeout(0);
    void handler.serveNode(req, res);
  };
  let server: NodeHttpServer;
  if (options.early) {
    server = options.early.server;
    options.early.serve(serve);
  } else {
    server = createServer(options.maxHeaderSize ? { maxHeaderSize: options.maxHeaderSize } : {}, serve);
    // A connection that never sends a byte is closed after the idle bound: Node's header timeout
    // starts at the first byte, so without this silent sockets would be held for ever. (No
    // listener answers the socket's timeout: Node destroys it.)
    const idle = options.idleConnectionTimeoutMs ?? 10_000;
    server.on('connection', (socket) => socket.setTimeout(idle));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }
  const { port } = server.address() as AddressInfo;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: new URL(`http://${hostForUrl}:${port}${options.path}`),
    port,
    async close() {
      // Stop accepting, then end idle keep-alive sockets; in-flight calls are aborted by the app.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await handler.close();
      server.closeAllConnections();
      await closed;
    }
  };
}
