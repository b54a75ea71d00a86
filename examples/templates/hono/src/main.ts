import 'reflect-metadata';
import { createApp } from './app';
import { createServer } from './server';

/** The part of Bun's global this file uses (no @types/bun needed). */
interface BunRuntime {
  serve(options: { fetch: (request: Request) => Response | Promise<Response>; hostname: string; port: number; idleTimeout?: number }): {
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void>;
  };
}

/**
 * One compiled source for both runtimes: Bun.serve on Bun, @hono/node-server on Node (loaded only
 * there). CommonJS has no top-level await: the bootstrap lives in an async main().
 */
async function main(): Promise<void> {
  const app = createApp();
  // HOST=0.0.0.0 (a container) needs ALLOWED_HOSTS: the Host names clients use (DNS rebinding protection).
  const allowedHosts = process.env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const { hono, mcp } = createServer(app, { allowedHosts });
  const hostname = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);

  let stopServer: () => Promise<void>;
  let listeningPort: number;
  const bun = (globalThis as { Bun?: BunRuntime }).Bun;
  if (bun) {
    // idleTimeout 0: a 2025-era session's event stream and a slow call's progress stream stay open.
    const server = bun.serve({ fetch: hono.fetch, hostname, port, idleTimeout: 0 });
    listeningPort = server.port;
    stopServer = () => server.stop(true);
  } else {
    const { serve } = await import('@hono/node-server');
    let server!: ReturnType<typeof serve>;
    listeningPort = await new Promise<number>((resolve) => {
      server = serve({ fetch: hono.fetch, hostname, port }, (info) => resolve(info.port));
    });
    stopServer = () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Open event streams would hold close() forever: end them once the handler has closed.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
  }
  // stderr, not stdout: stdout may be a protocol channel elsewhere, and the framework keeps off it.
  process.stderr.write(`mcpfusion-hono listening on http://${hostname}:${listeningPort}/mcp (${bun ? 'Bun' : 'Node'})\n`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await mcp.close(); // sessions and streams first: the calls in them are cancelled
    await stopServer();
    await app.close();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`mcpfusion-hono failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
