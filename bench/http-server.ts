import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { BenchProbe, bareSdkServer, benchApp } from './contenders';

/**
 * One HTTP contender in its own process (`node build/bench/http-server.js sdk|fusion`): the
 * bare SDK v2 (`createMcpHandler` per request, its stateless 2025-era fallback, behind the
 * localhost guards, as the SDK documents it) or the framework (`app.listen`). Reports its
 * port on stdout, the one line the parent reads; stops on SIGTERM.
 */
async function main(): Promise<void> {
  const which = process.argv[2];
  let port: number;
  if (which === 'sdk') {
    const mcp = toNodeHandler(createMcpHandler(() => bareSdkServer()));
    const validateHost = localhostHostValidation();
    const validateOrigin = localhostOriginValidation();
    const server = createServer((req, res) => {
      if (!validateHost(req, res) || !validateOrigin(req, res)) return;
      void mcp(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    process.once('SIGTERM', () => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  } else if (which === 'fusion') {
    const app = benchApp(new BenchProbe(), undefined, () => undefined);
    const listening = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp' });
    port = Number(listening.url!.port);
  } else {
    throw new Error(`unknown contender ${which}`);
  }
  process.stdout.write(`${port}\n`);
}

void main();
