/**
 * The guards of the HTTP entry, each on its own, with real web `Request`s (and, for the
 * authentication guard, real JWTs verified against a JWKS served on 127.0.0.1): what each one
 * lets through, and the exact refusal (status, JSON-RPC code and message) of what it does not.
 */
import { readRequestBody, type AuthInfo } from '@modelcontextprotocol/server';
import { jwtVerifier } from '../../../../src';
import { createHttpAuthGate } from '../../../../src/auth/http-auth';
import { authenticationGuard, type AuthenticationGuard } from '../../../../src/transports/http/guards/authentication.guard';
import { guardBody } from '../../../../src/transports/http/guards/body.guard';
import { hostOriginGuard } from '../../../../src/transports/http/guards/host-origin.guard';
import { MAX_BODY_BYTES } from '../../../../src/transports/http/protocol-refusals';
import { webEntryRequest as entry } from '../../../../src/transports/http/entry-request';
import { AUDIENCE, ISSUER, JwksServer, jwksOf, mintToken, signingKey, type SigningKey } from '../../../helpers/auth-fixtures';

const ENDPOINT = 'http://127.0.0.1:3000/mcp';

/** A JSON-RPC refusal's status and body. */
async function refusalOf(answer: Response | { body: unknown } | undefined): Promise<{ status: number; body: unknown }> {
  if (!(answer instanceof Response)) throw new Error(`expected a refusal, got ${JSON.stringify(answer)}`);
  expect(answer.headers.get('content-type')).toBe('application/json');
  return { status: answer.status, body: await answer.json() };
}

const jsonRpcError = (code: number, message: string, id: string | number | null = null) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id
});

describe('the host/origin guard (DNS rebinding)', () => {
  const hostGuard = hostOriginGuard();
  const guard = (request: Request) => hostGuard(entry(request));

  it('lets a request to a localhost name through, with or without a localhost Origin', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'localhost', '[::1]:3000']) {
      expect(guard(new Request(ENDPOINT, { headers: { host } }))).toBeUndefined();
    }
    expect(guard(new Request(ENDPOINT, { headers: { origin: 'http://localhost:5173' } }))).toBeUndefined();
  });

  it('refuses a Host that is not allowed with 403 naming it', async () => {
    const refusal = await refusalOf(guard(new Request(ENDPOINT, { headers: { host: 'rebound.example:3000' } })));
    expect(refusal).toEqual({ status: 403, body: jsonRpcError(-32000, 'Forbidden: Host rebound.example:3000 is not allowed') });
  });

  it('takes the host from the URL of a Request built in-process without a Host header', async () => {
    expect(guard(new Request(ENDPOINT))).toBeUndefined();
    const refusal = await refusalOf(guard(new Request('http://rebound.example/mcp')));
    expect(refusal).toEqual({ status: 403, body: jsonRpcError(-32000, 'Forbidden: Host rebound.example is not allowed') });
  });

  it("refuses a browser's Origin that is not allowed with 403, even to an allowed Host", async () => {
    const refusal = await refusalOf(guard(new Request(ENDPOINT, { headers: { origin: 'https://attacker.example' } })));
    expect(refusal.status).toBe(403);
    expect(refusal.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
  });

  it('honours the allowed hosts and origins it is given instead of the localhost names', async () => {
    const custom = hostOriginGuard({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['app.example.com'] });
    const at = (headers: Record<string, string>) => custom(entry(new Request('https://mcp.example.com/mcp', { headers })));
    expect(at({})).toBeUndefined();
    expect(at({ origin: 'https://app.example.com' })).toBeUndefined();
    expect((await refusalOf(at({ host: 'localhost' }))).status).toBe(403);
    expect((await refusalOf(at({ origin: 'http://localhost:5173' }))).status).toBe(403);
  });
});

describe('the body guard (reading a POST)', () => {
  const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request(ENDPOINT, { method: 'POST', headers: { ...HEADERS, ...headers }, body, duplex: 'half' } as RequestInit);
  /** The body guard as the `fetch` entry runs it: the SDK's reader, at most MAX_BODY_BYTES. */
  const guard = (request: Request) => guardBody(entry(request), () => readRequestBody(request, MAX_BODY_BYTES));
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

  it('passes a JSON request and gives it parsed', async () => {
    expect(await guard(post(ping))).toEqual({ body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  });

  it('passes without an Accept header (anything is acceptable) and with a JSON content type that has parameters', async () => {
    const request = new Request(ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: ping });
    expect(await guard(request)).toEqual({ body: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  });

  it('refuses an Accept that admits neither JSON nor an event stream with 406', async () => {
    const refusal = await refusalOf(await guard(post(ping, { accept: 'text/html' })));
    expect(refusal).toEqual({
      status: 406,
      body: jsonRpcError(-32000, 'Not Acceptable: Accept must admit application/json or text/event-stream (got text/html)')
    });
  });

  it('refuses a content type that is not JSON with 415, before reading the body', async () => {
    let read = false;
    const request = post(ping, { 'content-type': 'text/plain' });
    const refusal = await refusalOf(
      await guardBody(entry(request), () => {
        read = true;
        return readRequestBody(request, MAX_BODY_BYTES);
      })
    );
    expect(refusal).toEqual({ status: 415, body: jsonRpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json') });
    expect(read).toBe(false);
  });

  it('refuses a body over the limit with 413', async () => {
    const refusal = await refusalOf(await guard(post(`"${'x'.repeat(MAX_BODY_BYTES)}"`)));
    expect(refusal).toEqual({
      status: 413,
      body: jsonRpcError(-32000, `Payload Too Large: the request body exceeds ${MAX_BODY_BYTES} bytes`)
    });
  });

  it('refuses a body that cannot be read (the stream fails mid-way) with 400 / -32700', async () => {
    const failing = new ReadableStream({
      pull: (controller) => controller.error(new Error('connection reset'))
    });
    const refusal = await refusalOf(await guard(post(failing)));
    expect(refusal).toEqual({ status: 400, body: jsonRpcError(-32700, 'Parse error: the request body could not be read') });
  });

  it('refuses a body that is not JSON with 400 / -32700', async () => {
    const refusal = await refusalOf(await guard(post('{"jsonrpc": "2.0",')));
    expect(refusal).toEqual({ status: 400, body: jsonRpcError(-32700, 'Parse error: the request body is not valid JSON') });
  });

  it('refuses __proto__ in the arguments of a tools/call with 400 / -32602, answering the request id', async () => {
    const body = '{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"refund","arguments":{"__proto__":{"admin":true}}}}';
    const refusal = await refusalOf(await guard(post(body)));
    expect(refusal).toEqual({
      status: 400,
      body: jsonRpcError(-32602, 'Invalid params: the arguments of refund contain the property name __proto__, which is not allowed', 'c1')
    });
  });

  it('drops the keys that could reach a prototype from inputResponses, and keeps the rest', async () => {
    const body =
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","inputResponses":{"__proto__":{"a":1},"constructor":1,"input":2}}}';
    const passed = (await guard(post(body))) as { body: { params: { inputResponses: object } } };
    expect(Object.keys(passed.body.params.inputResponses)).toEqual(['input']);
    expect(Object.prototype.hasOwnProperty.call(passed.body.params.inputResponses, '__proto__')).toBe(false);
  });

  describe('batches', () => {
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping' }
    ]);

    it('refuses a batch without a session whose version header is 2025-06-18 or later with 400 / -32600', async () => {
      for (const version of ['2025-06-18', '2026-07-28']) {
        const refusal = await refusalOf(await guard(post(batch, { 'mcp-protocol-version': version })));
        expect(refusal).toEqual({
          status: 400,
          body: jsonRpcError(
            -32600,
            `Invalid Request: JSON-RPC batches are not allowed on protocol version ${version} (removed in 2025-06-18); send one message per request`
          )
        });
      }
    });

    it('lets a batch through on an earlier version, without a version header, and on a session (judged by the session)', async () => {
      expect(await guard(post(batch, { 'mcp-protocol-version': '2025-03-26' }))).toHaveProperty('body');
      expect(await guard(post(batch))).toHaveProperty('body');
      expect(await guard(post(batch, { 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 's1' }))).toHaveProperty('body');
    });
  });
});

describe('the authentication guard (bearer tokens, through the HTTP auth gate)', () => {
  const METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
  let key: SigningKey;
  let jwks: JwksServer;
  let guard: AuthenticationGuard;

  beforeAll(async () => {
    key = await signingKey('k1');
    jwks = await new JwksServer(jwksOf(key)).start();
    const gate = createHttpAuthGate(
      { verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwks.url }), resource: AUDIENCE, authorizationServers: [ISSUER] },
      ['ledger:write'],
      ({ method, params }) =>
        method === 'tools/call' && (params as { name?: string }).name === 'ledger.write' ? ['ledger:write'] : undefined
    );
    guard = authenticationGuard(gate);
  });

  afterAll(async () => {
    await jwks.close();
  });

  const withToken = (token: string, url = ENDPOINT) =>
    entry(new Request(url, { method: 'POST', headers: { authorization: `Bearer ${token}` } }));

  it('serves the protected resource metadata at its well-known path, and nothing at other paths', async () => {
    const answer = guard.metadata(entry(new Request(`http://127.0.0.1:3000${METADATA_PATH}`)), METADATA_PATH);
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toMatchObject({ resource: AUDIENCE, authorization_servers: [ISSUER] });
    expect(guard.metadata(entry(new Request('http://127.0.0.1:3000/elsewhere')), '/elsewhere')).toBeUndefined();
  });

  it('gives the verified token of a request that carries a good one', async () => {
    const token = await mintToken(key, { sub: 'alice', scope: 'ledger:write' });
    const caller = await guard.authenticate(withToken(token));
    expect(caller).not.toBeInstanceOf(Response);
    expect((caller as AuthInfo).extra?.subject).toBe('alice');
  });

  it('refuses a request without a token with 401 and the challenge', async () => {
    const refused = (await guard.authenticate(entry(new Request(ENDPOINT, { method: 'POST' })))) as Response;
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it("reads the query string of the request's own URL: a token there is refused", async () => {
    const token = await mintToken(key, { sub: 'alice' });
    const refused = (await guard.authenticate(withToken(token, `${ENDPOINT}?access_token=${token}`))) as Response;
    expect(refused.status).toBe(401);
  });

  it('refuses with 403 a body that calls what needs a scope the token lacks; judges nothing without a caller', async () => {
    const token = await mintToken(key, { sub: 'alice', scope: 'ledger:read' });
    const caller = (await guard.authenticate(withToken(token))) as AuthInfo;
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ledger.write', arguments: {} } };
    expect(guard.authorize(body, caller)?.status).toBe(403);
    expect(guard.authorize({ ...body, params: { name: 'ledger.read' } }, caller)).toBeUndefined();
    expect(guard.authorize(body, undefined)).toBeUndefined();
  });
});
