import { Hono } from 'hono';
import type { FusionApp, FusionHttpHandler } from '@mcpfusion/core';

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Host names clients may use (DNS rebinding protection). Default: the localhost names. */
  allowedHosts?: string[];
}

/** The Hono app and the MCP endpoint it serves; close `mcp` (then the app) on shutdown. */
export interface Server {
  readonly hono: Hono;
  readonly mcp: FusionHttpHandler;
}

/**
 * Mounts the app's web-standard MCP endpoint at `/mcp` of a Hono app. Hono hands over the raw
 * `Request` untouched (`c.req.raw`): its body is unread, its signal ends when the client goes
 * away, so one handler serves both protocol eras on every runtime Hono runs on.
 */
export function createServer(app: FusionApp, options: ServerOptions = {}): Server {
  const mcp = app.createHttpHandler({ ...(options.allowedHosts?.length ? { allowedHosts: options.allowedHosts } : {}) });
  const hono = new Hono();
  hono.get('/', (c) => c.text('mcpfusion-hono: the MCP endpoint is /mcp\n'));
  // GET (a 2025-era session's stream), POST (every message) and DELETE (a session's end).
  hono.all('/mcp', (c) => mcp.fetch(c.req.raw));
  return { hono, mcp };
}
