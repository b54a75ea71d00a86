import type { McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

/** A stdio connection being served. */
export interface StdioListener {
  close(): Promise<void>;
  /** Resolves when the client closes its end of the pipe (end of input) or the connection is closed. */
  readonly closed: Promise<void>;
}

/**
 * Serves the app on this process's stdin/stdout (or on `transport`), both eras. The
 * library writes nothing else to stdout: diagnostics go to stderr.
 */
export function listenStdio(factory: McpServerFactory, onerror: (error: Error) => void, transport?: Transport): StdioListener {
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const tracked: McpServerFactory = async (ctx) => {
    const instance = await factory(ctx);
    const server = 'server' in instance ? instance.server : instance;
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      markClosed();
    };
    return instance;
  };
  const handle = serveStdio(tracked, { onerror, ...(transport ? { transport } : {}) });
  if (!transport) process.stdin.once('end', () => markClosed());
  return {
    closed,
    async close() {
      await handle.close();
      markClosed();
    }
  };
}
