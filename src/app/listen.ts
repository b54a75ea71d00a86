import type { McpServerFactory, Transport } from '@modelcontextprotocol/server';
import { positiveInt } from '../config/option-checks';
import { ConfigurationError } from '../errors';
import { EARLY_SERVER, listenEarly, type EarlyHttpServer } from '../transports/http/early-server';
import type { FusionHttpHandler } from '../transports/http/fusion-http-handler';
import type * as HttpListener from '../transports/http/http-listener';
import type * as StdioListener from '../transports/stdio-listener';
import type { ListenOptions } from './app-options';

/** What `listen` started. */
export interface Listening {
  /** The endpoint URL (HTTP only). */
  readonly url?: URL;
  /** Resolves when the stdio client closes its end (stdio only). */
  readonly closed?: Promise<void>;
}

/** Something `listen` started that the app closes on shutdown. */
export interface Closable {
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** What `listen` needs of the app. */
export interface ListenParts {
  readonly serverFactory: McpServerFactory;
  createHttpHandler(options: ListenOptions & { transport: 'http' }): FusionHttpHandler;
  /** With `auth`: oversized Authorization headers are answered 401 by the gate, not 431 by Node. */
  readonly withAuth: boolean;
  readonly log: (message: string) => void;
}

/** Serves an app on stdio or Streamable HTTP (127.0.0.1 by default); returns what it started and its closer. */
export async function listenOn(parts: ListenParts, options: ListenOptions, stdioTransport?: Transport): Promise<[Listening, Closable]> {
  // The listeners are loaded here, on the first `listen`: `node:http` and the SDK's stdio transport
  // are Node's, and an app served through `createHttpHandler().fetch` (a Worker, Deno, Bun, a
  // Next.js route) never loads them.
  if (options.transport === 'stdio') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { listenStdio } = require('../transports/stdio-listener') as typeof StdioListener;
    const stdio = listenStdio(parts.serverFactory, (e) => parts.log(`stdio: ${e.message}`), stdioTransport);
    return [{ closed: stdio.closed }, stdio];
  }
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !options.allowedHosts) {
    throw new ConfigurationError(`Binding to ${host} needs allowedHosts (the Host names clients use), to keep DNS rebinding protection.`);
  }
  const idleConnectionTimeoutMs = positiveInt(options.idleConnectionTimeoutMs, 10_000, 'listen idleConnectionTimeoutMs');
  // A server `serveGateway` already listens on (internal, under a symbol: see early-server.ts). Else
  // the port is taken now, before the HTTP entry and the SDK server load (most of a cold start: see
  // src/wire/server-sdk.ts): clients can connect at once, and what comes meanwhile is held and
  // answered once the handler is made. A port in use still fails here, before anything else.
  const given = (options as { [EARLY_SERVER]?: EarlyHttpServer })[EARLY_SERVER];
  const early =
    given ??
    (await listenEarly({
      host,
      port: options.port ?? 3000,
      idleConnectionTimeoutMs,
      ...(parts.withAuth ? { maxHeaderSize: 128 * 1024 } : {})
    }));
  try {
    const handler = parts.createHttpHandler(options);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    const { listenHttp } = require('../transports/http/http-listener') as typeof HttpListener;
    const http = await listenHttp(handler, { host, port: early.port, path: options.path ?? '/mcp', idleConnectionTimeoutMs, early });
    return [{ url: http.url }, http];
  } catch (error) {
    if (!given) await early.close();
    throw error;
  }
}

/** SIGINT and SIGTERM end the process through the app's graceful shutdown (installed once, removed by `close`). */
export class ProcessSignals {
  private readonly handlers: Array<[NodeJS.Signals, () => void]> = [];

  /** `close` is the app's graceful shutdown, `log` where the signal is told. */
  constructor(
    private readonly close: () => Promise<void>,
    private readonly log: (message: string) => void
  ) {}

  /** Installs the handlers (once). */
  install(): void {
    if (this.handlers.length > 0) return;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const handler = (): void => {
        this.log(`${signal}: shutting down`);
        void this.close().finally(() => process.exit(0));
      };
      process.once(signal, handler);
      this.handlers.push([signal, handler]);
    }
  }

  remove(): void {
    for (const [signal, handler] of this.handlers) process.off(signal, handler);
    this.handlers.length = 0;
  }
}
