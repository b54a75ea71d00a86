import { authSwitchedOn } from '../auth/auth-switch';
import type { EarlyServerOptions } from '../transports/http/early-server';

/** Where `serveGateway` listens: the address and port (defaults 127.0.0.1 and 3000), and the environment it reads MCP_AUTH_* from. */
export interface ServePort {
  /** The address (default 127.0.0.1). */
  readonly host?: string;
  /** The port (default 3000; 0: a free one). */
  readonly port?: number;
  /** Default: this process's environment. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The options of the port `serveGateway` serves on (what `listen` gives its own server): larger
 * headers when MCP_AUTH_* turn authorization on (bearer tokens; oversized ones are then answered
 * 401 by the gate rather than 431 by Node), the idle bound of a silent connection. Loads nothing:
 * `mcpfusion serve` takes its port with these before it loads the framework.
 */
export function servePortOptions(where: ServePort = {}): EarlyServerOptions {
  return {
    host: where.host ?? '127.0.0.1',
    port: where.port ?? 3000,
    ...(authSwitchedOn(where.env ?? process.env) ? { maxHeaderSize: 128 * 1024 } : {}),
    idleConnectionTimeoutMs: 10_000
  };
}
