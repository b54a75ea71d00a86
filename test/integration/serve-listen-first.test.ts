import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FusionApp, type ListenOptions } from '../../src';
import { serveGateway } from '../../src/gateway/serve';
import { EARLY_SERVER, listenEarly } from '../../src/transports/http/early-server';
import { servePortOptions } from '../../src/gateway/serve-port';
import { freePort } from '../helpers/redis-server';
import { acceptsConnection } from '../helpers/tcp-probe';

/**
 * `mcpfusion serve` listens before it connects (cold start): the port accepts connections while the
 * upstream is reached and the gateway app is made, a request that comes meanwhile is held and
 * answered once the app serves, and a failed connection still fails the start and frees the port.
 */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'early', version: '1.0.0' } }
});

describe('serve: listen first, connect after', () => {
  it('holds a request that comes before the app serves, and answers it once the app listens on the early server', async () => {
    const early = await listenEarly({ host: '127.0.0.1', port: 0, idleConnectionTimeoutMs: 10_000 });
    const app = FusionApp.create({ name: 'late', version: '1.0.0', tools: [], logger: () => undefined });
    try {
      const arrived = once(early.server, 'request');
      const answer = fetch(`http://127.0.0.1:${early.port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: INITIALIZE
      });
      await arrived; // held: no handler yet
      const listening = await app.listen({
        transport: 'http',
        port: early.port,
        handleSignals: false,
        [EARLY_SERVER]: early
      } as ListenOptions);
      expect(listening.url?.port).toBe(String(early.port));
      const response = await answer;
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"serverInfo"');
    } finally {
      await app.close();
    }
    expect(await acceptsConnection(early.port)).toBe(false);
  });

  it('accepts connections while its upstream has not answered yet, then answers the client that connected meanwhile', async () => {
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [], logger: () => undefined });
    const handler = upstream.createHttpHandler();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const upstreamReached = new Promise<void>((resolve) => (reached = resolve));
    // The upstream holds every request until released: the gateway is mid-connect until then.
    const held = createServer((req: IncomingMessage, res: ServerResponse) => {
      reached();
      void released.then(() => handler.serveNode(req, res));
    });
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(held.address() as AddressInfo).port}/mcp`;
    const port = await freePort();
    const serving = serveGateway({ target: upstreamUrl, namespace: 'up', port, env: {}, log: () => undefined });
    const client = new Client({ name: 'front', version: '1.0.0' });
    try {
      await upstreamReached;
      expect(await acceptsConnection(port)).toBe(true);
      const connected = client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      release();
      const served = await serving;
      await connected;
      expect(client.getServerVersion()?.name).toBe('mcpfusion-gateway');
      await client.close();
      await served.app.close();
    } finally {
      release();
      await client.close();
      held.closeAllConnections();
      await new Promise<void>((resolve) => held.close(() => resolve()));
      await upstream.close();
    }
  }, 30_000);

  it('still fails the start when the upstream cannot be reached, and frees the port', async () => {
    const port = await freePort();
    await expect(serveGateway({ target: 'http://127.0.0.1:9/mcp', port, env: {}, log: () => undefined })).rejects.toThrow();
    expect(await acceptsConnection(port)).toBe(false);
  }, 30_000);

  it('serves on a port taken before (listening), and frees it when the start fails', async () => {
    const upstream = FusionApp.create({ name: 'upstream', version: '1.0.0', tools: [], logger: () => undefined });
    const handler = upstream.createHttpHandler();
    const upstreamServer = createServer((req: IncomingMessage, res: ServerResponse) => void handler.serveNode(req, res));
    await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstreamServer.address() as AddressInfo).port}/mcp`;
    try {
      const listening = await listenEarly(servePortOptions({ port: 0, env: {} }));
      const served = await serveGateway({ target: upstreamUrl, namespace: 'up', env: {}, log: () => undefined, listening });
      expect(served.url.port).toBe(String(listening.port));
      await served.app.close();
      expect(await acceptsConnection(listening.port)).toBe(false);

      // A start that fails (here the auth variables, half set) closes the port it was given.
      const given = await listenEarly(servePortOptions({ port: 0, env: {} }));
      await expect(
        serveGateway({ target: upstreamUrl, env: { MCP_AUTH_ISSUER: 'https://issuer.example' }, log: () => undefined, listening: given })
      ).rejects.toThrow(/half configured/);
      expect(await acceptsConnection(given.port)).toBe(false);
    } finally {
      upstreamServer.closeAllConnections();
      await new Promise<void>((resolve) => upstreamServer.close(() => resolve()));
      await upstream.close();
    }
  }, 30_000);

  it('sizes the port for bearer tokens when any MCP_AUTH_* variable is set, as authFromEnv reads them', () => {
    expect(servePortOptions({ env: {} })).toEqual({ host: '127.0.0.1', port: 3000, idleConnectionTimeoutMs: 10_000 });
    expect(servePortOptions({ env: { MCP_AUTH_AUDIENCE: '   ' } }).maxHeaderSize).toBeUndefined();
    expect(servePortOptions({ port: 0, env: { MCP_AUTH_JWKS_URL: 'https://issuer.example/jwks' } })).toEqual({
      host: '127.0.0.1',
      port: 0,
      maxHeaderSize: 128 * 1024,
      idleConnectionTimeoutMs: 10_000
    });
  });
});
