import { request as httpRequest } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { FusionApp } from '../../src';
import { DeskTools, Probe } from '../fixtures/desk-tools';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';

/** Untrusted bytes off the wire get a clear error, and the server stays up. */
describe('hostile input over HTTP', () => {
  let app: FusionApp;
  let url: URL;
  const diagnostics: string[] = [];
  beforeAll(async () => {
    // The server's diagnostics name what it refused; kept for the assertions, off the test output.
    app = FusionApp.create({
      tools: [DeskTools],
      providers: [{ provide: Probe, useValue: new Probe() }],
      logger: (m) => diagnostics.push(m)
    });
    ({ url: url! } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(() => app.close());

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body
    });

  it('answers malformed JSON, a non-JSON-RPC body and a wrong content type with 4xx and a JSON-RPC error', async () => {
    for (const [body, headers] of [
      ['{not json', {}],
      ['[]', {}],
      ['{"hello":"world"}', {}],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'content-type': 'text/plain' }]
    ] as Array<[string, Record<string, string>]>) {
      const res = await post(body, headers);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      await res.body?.cancel();
    }
    expect(diagnostics.some((m) => m.includes('Rejected inbound request'))).toBe(true);
  });

  it('refuses a body over 4 MB with 413 before parsing it, and a body that is no JSON with -32700', async () => {
    const huge = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }));
    expect(huge.status).toBe(413);
    await huge.body?.cancel();
    const garbage = await post('{"jsonrpc":');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('refuses a chunked body that grows past 4 MB with 413 and closes the connection; a client gone mid-body leaves the server up', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const refused = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve({ status: res.statusCode!, connection: res.headers.connection });
      });
      req.on('error', () => undefined); // the server may close before the last chunk is written
      const chunk = 'x'.repeat(256 * 1024);
      req.write('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"');
      const pump = (left: number): void => {
        if (left === 0 || req.destroyed) return void req.end('"}}');
        if (req.write(chunk)) pump(left - 1);
        else req.once('drain', () => pump(left - 1));
      };
      pump(20);
      req.once('close', () => reject(new Error('closed without an answer')));
    });
    expect(refused).toEqual({ status: 413, connection: 'close' });

    // Half a body, then the client goes away: nothing answers it, and the next request is served.
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': '1000' } });
      req.on('error', () => undefined);
      req.write('{"jsonrpc":"2.0","id":1,', () => {
        req.destroy();
        resolve();
      });
    });
    const { body, headers: modern } = modernRequest('tools/list', {});
    expect(responseOf(await postRaw(url, body, modern)).result).toMatchObject({ tools: expect.any(Array) });
  });

  it('answers params the spec schema refuses (arguments that are no object) with -32602, not -32603', async () => {
    const { body, headers } = modernRequest('tools/call', { name: 'echo', arguments: 'nope' });
    const answer = responseOf(await postRaw(url, body, headers));
    expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining('arguments') });
  });

  it('answers bad tools/call params with a clear error, and the server stays up', async () => {
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url));
    await expect(client.callTool({ name: 'echo', arguments: 'nope' as never })).rejects.toThrow(); // the client refuses it itself
    const wrongTypes = await client.callTool({ name: 'echo', arguments: { text: { $gt: '' } } });
    expect(wrongTypes.isError).toBe(true);
    expect((wrongTypes.content[0] as { text: string }).text).toContain('text must be a string');
    const deep = JSON.parse('{"text":"x","a":' + '{"b":'.repeat(40) + '1' + '}'.repeat(40) + '}');
    const tooDeep = await client.callTool({ name: 'echo', arguments: deep });
    expect((tooDeep.content[0] as { text: string }).text).toMatch(/nesting deeper than 32 levels|property a should not exist/);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'still up' } })).structuredContent).toMatchObject({
      text: 'still up'
    });
    await client.close();
  });
});
