import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Cold start: importing the package and `FusionApp.create` do not load the SDK server (it is most of
 * a start's load: src/wire/server-sdk.ts) nor the OpenTelemetry API (made with the first server), and `app.listen` on HTTP takes its port before it loads
 * it; a request that comes meanwhile is held and answered. A port in use still fails `listen`.
 *
 * Run in a child `node` on the built package (dist/), which starts with an empty module cache.
 */
const ROOT = join(__dirname, '..', '..');

const PROBE = String.raw`
require('reflect-metadata');
const http = require('node:http');
// Which of the SDK server and the OpenTelemetry API are loaded now.
const sdkLoaded = () => ['/@modelcontextprotocol/server/', '/@opentelemetry/api/'].filter((p) => Object.keys(require.cache).some((file) => file.includes(p))).join(' ') || 'none';
const seen = {};
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  this.once('listening', () => { if (seen.atListening === undefined) seen.atListening = sdkLoaded(); });
  return listen.apply(this, args);
};
const core = require(process.env.PROBE_ENTRY);
seen.atImport = sdkLoaded();
class Greeter { hello() { return 'hi'; } }
Reflect.decorate([core.ToolProvider()], Greeter);
Reflect.decorate([core.Action('hello', { description: 'Says hi' })], Greeter.prototype, 'hello', Object.getOwnPropertyDescriptor(Greeter.prototype, 'hello'));
const make = () => core.FusionApp.create({ name: 'listen-first', version: '1.0.0', tools: [Greeter], logger: () => {} });
const app = make();
seen.atCreate = sdkLoaded();
(async () => {
  const listening = await app.listen({ transport: 'http', port: 0, handleSignals: false });
  const response = await fetch(listening.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } } })
  });
  seen.status = response.status;
  seen.named = (await response.text()).includes('"name":"listen-first"');
  const second = make();
  seen.inUse = await second.listen({ transport: 'http', port: Number(listening.url.port), handleSignals: false }).then(() => 'listened', (error) => error.code);
  await second.close();
  await app.close();
  process.stdout.write(JSON.stringify(seen));
})().catch((error) => { process.stdout.write(JSON.stringify({ ...seen, failed: String(error && error.stack) })); });
`;

describe('cold start: the SDK server loads after the port is taken', () => {
  it('is not loaded by import or create, only once listen has its port; the first request is answered, a port in use refused', async () => {
    const entry = join(ROOT, 'dist', 'index.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (npm run build)`);
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', PROBE], {
      cwd: ROOT,
      env: { ...process.env, PROBE_ENTRY: entry }
    });
    expect(JSON.parse(stdout)).toEqual({
      atImport: 'none',
      atCreate: 'none',
      atListening: 'none',
      status: 200,
      named: true,
      inUse: 'EADDRINUSE'
    });
  }, 30_000);
});
