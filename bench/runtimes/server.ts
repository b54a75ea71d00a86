import 'reflect-metadata';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  originValidationResponse
} from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { bareEchoServer, echoApp } from './echo';

/**
 * One contender of the runtime bench in its own process, on whichever runtime runs this file
 * (Node, Bun or Deno): `server.js sdk|fusion|fusion-node`. Prints one line of JSON,
 * `{ "port", "pid", "runtime" }`, the only thing the driver reads; stops on SIGTERM.
 *
 * - `sdk`: the bare SDK v2, `createMcpHandler(factory)` (a fresh `McpServer` per request, its
 *   stateless 2025-era fallback) behind the SDK's web-standard Host and Origin checks, as it
 *   documents them.
 * - `fusion`: `app.createHttpHandler().fetch` (Host and Origin checked by the framework).
 * - `fusion-node` (Node only): `handler.serveNode`, what `app.listen({ transport: 'http' })` uses.
 *
 * Each runtime serves a fetch handler with its own server: `Bun.serve`, `Deno.serve`, and on
 * Node `node:http` through the SDK's `toNodeHandler` adapter (the same adapter for both contenders).
 */

type FetchHandler = (request: Request) => Promise<Response>;

interface BunLike {
  serve(options: { port: number; hostname: string; fetch: FetchHandler }): { port: number };
}
interface DenoLike {
  pid: number;
  serve(options: { port: number; hostname: string; onListen(address: { port: number }): void }, handler: FetchHandler): unknown;
}

const runtime = (globalThis as { Bun?: BunLike }).Bun ? 'bun' : (globalThis as { Deno?: DenoLike }).Deno ? 'deno' : 'node';

function bareFetch(): FetchHandler {
  const mcp = createMcpHandler(() => bareEchoServer());
  const hosts = localhostAllowedHostnames();
  return async (request) => hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, hosts) ?? mcp.fetch(request);
}

async function serveNode(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
  return (server.address() as AddressInfo).port;
}

async function serveFetch(fetch: FetchHandler): Promise<number> {
  if (runtime === 'bun') {
    return (globalThis as unknown as { Bun: BunLike }).Bun.serve({ port: 0, hostname: '127.0.0.1', fetch }).port;
  }
  if (runtime === 'deno') {
    const deno = (globalThis as unknown as { Deno: DenoLike }).Deno;
    return new Promise<number>((resolve) => deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => resolve(port) }, fetch));
  }
  const adapter = toNodeHandler({ fetch });
  return serveNode((req, res) => void adapter(req, res));
}

async function main(): Promise<void> {
  const which = process.argv[2];
  let port: number;
  if (which === 'sdk') {
    port = await serveFetch(bareFetch());
  } else if (which === 'fusion') {
    const handler = echoApp().createHttpHandler();
    port = await serveFetch((request) => handler.fetch(request));
  } else if (which === 'fusion-node' && runtime === 'node') {
    const handler = echoApp().createHttpHandler();
    port = await serveNode((req, res) => void handler.serveNode(req, res));
  } else {
    throw new Error(`unknown contender ${which} on ${runtime}`);
  }
  process.stdout.write(`${JSON.stringify({ port, pid: process.pid, runtime })}\n`);
}

void main();
