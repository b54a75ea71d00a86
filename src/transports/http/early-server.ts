import type { IncomingMessage, Server as NodeHttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The key under which `listen` finds an {@link EarlyHttpServer} in its options (internal: not part
 * of the public `ListenOptions`, a symbol so that no options object a user writes can carry it).
 * `serveGateway` listens on its port before it connects to its upstreams and builds its app, then
 * hands the server to `app.listen` under this key.
 */
export const EARLY_SERVER = Symbol('mcpfusion.earlyServer');

/**
 * A node:http server that listens now and serves later: the requests it receives before
 * {@link EarlyHttpServer.serve} are held (their sockets open, their bodies unread) and handed to
 * the handler given then, in the order they came. What listens first (the port is taken, clients
 * can connect) is ready to answer only when its app is; a client that comes early waits for its
 * answer instead of being refused.
 */
export interface EarlyHttpServer {
  /** The server, listening on `port`. */
  readonly server: NodeHttpServer;
  /** The port it listens on (the one asked for, or the free one picked for 0). */
  readonly port: number;
  /** From now on requests go to `listener`; the ones held until now go to it first, in order. Once. */
  serve(listener: (req: IncomingMessage, res: ServerResponse) => void): void;
  /** Stops listening and ends the held requests' connections (the app never came). */
  close(): Promise<void>;
}

/** Options of {@link listenEarly}: those `listenHttp` would have given its own server. */
export interface EarlyServerOptions {
  /** The address to listen on. */
  readonly host: string;
  /** The port (0: a free one). */
  readonly port: number;
  /** Node's bound on a request's headers, in bytes (default Node's, 16 KiB). */
  readonly maxHeaderSize?: number;
  /** A connection that sends nothing for this long is closed (a held request's is not). */
  readonly idleConnectionTimeoutMs: number;
}

/** Listens on `host`:`port` now, holding requests until a handler is given (see {@link EarlyHttpServer}). */
export async function listenEarly(options: EarlyServerOptions): Promise<EarlyHttpServer> {
  // node:http on use: this module is loaded by `serveGateway` only (a Node process).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const { createServer } = require('node:http') as typeof import('node:http');
  const held: Array<[IncomingMessage, ServerResponse]> = [];
  let listener: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer(options.maxHeaderSize ? { maxHeaderSize: options.maxHeaderSize } : {}, (req, res) => {
    if (listener) listener(req, res);
    else {
      // Held: the connection stays open while the app is made (the idle bound below is for silent sockets).
      req.socket.setTimeout(0);
      held.push([req, res]);
    }
  });
  // As `listenHttp` does for its own server: a connection that never sends a byte is closed after the idle bound.
  server.on('connection', (socket) => socket.setTimeout(options.idleConnectionTimeoutMs));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(next) {
      if (listener) return;
      listener = next;
      for (const [req, res] of held.splice(0)) if (!res.writableEnded && !req.destroyed) next(req, res);
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      held.length = 0;
      server.closeAllConnections();
      await closed;
    }
  };
}
