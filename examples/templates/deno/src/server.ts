import type { FusionApp } from '@mcpfusion/core';

/** Where {@link serve} listens. */
export interface ServeOptions {
  /** Default 127.0.0.1. Anything but loopback needs `allowedHosts`. */
  host?: string;
  /** Default 3000; 0 picks a free port. */
  port?: number;
  /** The Host names clients use (DNS rebinding protection). Default: the localhost names. */
  allowedHosts?: string[];
}

/** A running server: its endpoint's URL, and its stop. */
export interface Serving {
  url: URL;
  /** Stops the server (the app is closed by its owner). */
  stop(): Promise<void>;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/** Serves the app's MCP endpoint (`/mcp`, both protocol eras) with `Deno.serve`. */
export function serve(app: FusionApp, options: ServeOptions = {}): Serving {
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = options.allowedHosts ?? [];
  if (!LOOPBACK.includes(host) && allowedHosts.length === 0) {
    throw new Error(`listening on ${host} needs allowedHosts (ALLOWED_HOSTS): the Host names clients use`);
  }
  // The web-standard endpoint; it checks Host and Origin itself.
  const mcp = app.createHttpHandler(allowedHosts.length > 0 ? { allowedHosts } : {});
  const server = Deno.serve(
    // onListen: nothing printed by Deno itself (main.ts says where it listens, on stderr).
    { hostname: host, port: options.port ?? 3000, onListen: () => {} },
    (request) => mcp.fetch(request)
  );
  const { hostname, port } = server.addr;
  return {
    url: new URL(`http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}/mcp`),
    async stop() {
      await mcp.close();
      await server.shutdown();
    }
  };
}
