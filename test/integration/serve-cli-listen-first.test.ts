import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_BIN } from '../helpers/cli-bin';
import { freePort } from '../helpers/redis-server';
import { serveProbeSetup, type ServeProbeSetup } from '../helpers/serve-probe';
import { acceptsConnection } from '../helpers/tcp-probe';

const ROOT = join(__dirname, '..', '..');

/**
 * `mcpfusion serve` takes its port before it loads the framework (cold start): the port is bound
 * with `node:http` alone (`@mcpfusion/core/early-listen`), then `@mcpfusion/core/advanced` loads,
 * the upstream is connected and the requests that came meanwhile are answered. Errors stay clear:
 * a port in use fails at once, an upstream that cannot be reached fails the start and frees the port.
 */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'early', version: '1.0.0' } }
});

/**
 * Loaded with `node -r` into the CLI: at the first `listening` of an HTTP server it tells on stderr its
 * port and whether the framework (the `advanced` entry, the SDK server) had been loaded by then.
 */
const PROBE = String.raw`
const http = require('node:http');
const listen = http.Server.prototype.listen;
let told = false;
http.Server.prototype.listen = function (...args) {
  this.once('listening', () => {
    if (told) return;
    told = true;
    const files = Object.keys(require.cache);
    const framework = files.some((f) => /[\\/]dist[\\/]advanced\.js$/.test(f) || f.includes('@modelcontextprotocol'));
    process.stderr.write('probe: port ' + this.address().port + ' framework ' + framework + '\n');
  });
  return listen.apply(this, args);
};
`;

/** The first stderr line of `child` that matches `pattern` (the whole stderr so far if it exits first). */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) {
        child.stderr!.off('data', onData);
        child.off('exit', onExit);
        resolve(match);
      }
    };
    const onExit = (): void => reject(new Error(`exited before ${pattern}: ${text}`));
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Runs the CLI to its end; its exit code and stderr. */
async function runToEnd(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

describe('mcpfusion serve: the port first, the framework after', () => {
  let setup: ServeProbeSetup;
  let probe: string;
  let upstreamUrl: string;

  beforeAll(async () => {
    setup = await serveProbeSetup('serve-listen-first-', PROBE);
    ({ probe, upstreamUrl } = setup);
  });

  afterAll(async () => {
    await setup.close();
  });

  it('@mcpfusion/core/early-listen loads nothing else of the framework (built: dist/)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '-e',
      `require(${JSON.stringify(join(ROOT, 'dist', 'early-listen.js'))}); console.log(JSON.stringify(Object.keys(require.cache)))`
    ]);
    const loaded = (JSON.parse(stdout) as string[]).map((file) => file.slice(join(ROOT, 'dist').length + 1)).sort();
    expect(loaded).toEqual(['auth/auth-switch.js', 'early-listen.js', 'gateway/serve-port.js', 'transports/http/early-server.js']);
  });

  it('listens before it loads the framework, and answers a client that came before it served', async () => {
    const child = spawn(process.execPath, ['-r', probe, CLI_BIN, 'serve', '--url', upstreamUrl, '--port', '0', '--namespace', 'up'], {
      stdio: ['ignore', 'ignore', 'pipe']
    });
    try {
      const [, port, framework] = await lineOf(child, /probe: port (\d+) framework (true|false)\n/);
      expect(framework).toBe('false');
      // Sent at once: held while the framework loads and the upstream is connected, then answered.
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: INITIALIZE
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"name":"mcpfusion-gateway"');
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  }, 30_000);

  it('fails at once with exit 2 naming the address when its port is in use', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const { code, stderr } = await runToEnd(['serve', '--url', upstreamUrl, '--port', String(port)]);
      expect(code).toBe(2);
      expect(stderr).toContain(`mcpfusion: serve: listen EADDRINUSE: address already in use 127.0.0.1:${port}`);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  }, 30_000);

  it('reports an upstream it cannot reach with exit 2, and frees its port', async () => {
    const port = await freePort();
    const { code, stderr } = await runToEnd(['serve', '--url', 'http://127.0.0.1:9/mcp', '--port', String(port)]);
    expect(code).toBe(2);
    expect(stderr).toContain('mcpfusion: serve: Could not connect to the upstream MCP server http://127.0.0.1:9/mcp');
    expect(await acceptsConnection(port)).toBe(false);
  }, 30_000);
});
