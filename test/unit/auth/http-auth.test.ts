/**
 * The HTTP auth gate (`createHttpAuthGate`) on its own: the endpoint as an OAuth 2.1 resource
 * server. Real web `Request`s, real JWTs signed by a key whose JWKS is served over HTTP on
 * 127.0.0.1, the real `jwtVerifier`: configuration mistakes are refused when the gate is
 * built, the RFC 9728 document is served at its well-known paths, a token is verified or
 * refused with the RFC 6750 challenge, and a request is refused 403 when what it calls needs
 * scopes the token lacks.
 */
import type { AuthInfo, OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { ConfigurationError, jwtVerifier } from '../../../src';
import { createHttpAuthGate, type AuthOptions, type HttpAuthGate, type ScopesOfRequest } from '../../../src/auth/http-auth';
import { AUDIENCE, ISSUER, JwksServer, jwksOf, mintToken, signingKey, type SigningKey } from '../../helpers/auth-fixtures';

/** Where the document of AUDIENCE (https://billing.example.test/mcp) lives (RFC 9728 §3.1). */
const METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
const METADATA_URL = `https://billing.example.test${METADATA_PATH}`;
const ENDPOINT = 'http://127.0.0.1/mcp';

/** The app's scope policy, as the member router would answer it: `ledger.write` needs `ledger:write`. */
const scopesOf: ScopesOfRequest = ({ method, params }) =>
  method === 'tools/call' && (params as { name?: unknown } | undefined)?.name === 'ledger.write' ? ['ledger:write'] : undefined;

let key: SigningKey;
let jwks: JwksServer;
let verifier: OAuthTokenVerifier;

beforeAll(async () => {
  key = await signingKey('k1');
  jwks = await new JwksServer(jwksOf(key)).start();
  verifier = jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwks.url });
});

afterAll(async () => {
  await jwks.close();
});

function gateWith(options: Partial<AuthOptions> = {}, declaredScopes: readonly string[] = ['ledger:write']): HttpAuthGate {
  return createHttpAuthGate({ verifier, resource: AUDIENCE, authorizationServers: [ISSUER], ...options }, declaredScopes, scopesOf);
}

/** A POST to the endpoint with these headers (and query string). */
function endpointRequest(headers: Record<string, string> = {}, query = ''): Request {
  return new Request(`${ENDPOINT}${query}`, { method: 'POST', headers });
}

async function authenticate(gate: HttpAuthGate, request: Request): Promise<AuthInfo | Response> {
  return gate.authenticate(request, new URL(request.url));
}

/** A refusal's status, challenge and OAuth error body. */
async function refusalOf(answer: AuthInfo | Response | undefined): Promise<{ status: number; challenge: string | null; body: unknown }> {
  if (!(answer instanceof Response)) throw new Error(`expected a refusal, got ${JSON.stringify(answer)}`);
  return { status: answer.status, challenge: answer.headers.get('www-authenticate'), body: await answer.json() };
}

describe('createHttpAuthGate: configuration', () => {
  it('refuses options without a verifier, naming auth.verifier', () => {
    expect(() => createHttpAuthGate({ resource: AUDIENCE, authorizationServers: [ISSUER] } as never, [], scopesOf)).toThrow(
      /auth\.verifier is required/
    );
  });

  it('refuses a resource that is not an absolute http(s) URL', () => {
    expect(() => gateWith({ resource: 'billing' })).toThrow(ConfigurationError);
    expect(() => gateWith({ resource: 'ftp://billing.example.test/mcp' })).toThrow(
      /auth\.resource must be this server's absolute http\(s\) URL/
    );
  });

  it('refuses an empty list of authorization servers', () => {
    expect(() => gateWith({ authorizationServers: [] })).toThrow(/auth\.authorizationServers must list the issuer URL/);
  });

  it('refuses a required scope that is not an OAuth scope token', () => {
    expect(() => gateWith({ requiredScopes: ['has space'] })).toThrow(ConfigurationError);
  });
});

describe('HttpAuthGate.metadata: the RFC 9728 document', () => {
  it('is served at the path derived from the resource and at the bare well-known path, with or without a trailing slash', async () => {
    const gate = gateWith({ requiredScopes: ['mcp'], resourceName: 'Billing' });
    for (const path of [METADATA_PATH, `${METADATA_PATH}/`, '/.well-known/oauth-protected-resource']) {
      const answer = gate.metadata(new Request(`http://127.0.0.1${path}`), path)!;
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('cache-control')).toBe('max-age=3600');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(await answer.json()).toEqual({
        resource: AUDIENCE,
        authorization_servers: [ISSUER],
        scopes_supported: ['ledger:write', 'mcp'],
        bearer_methods_supported: ['header'],
        resource_name: 'Billing'
      });
    }
  });

  it('is not served at any other path (the endpoint included)', () => {
    const gate = gateWith();
    expect(gate.metadata(new Request(ENDPOINT), '/mcp')).toBeUndefined();
    expect(gate.metadata(new Request('http://127.0.0.1/.well-known/other'), '/.well-known/other')).toBeUndefined();
  });

  it('answers HEAD without a body, OPTIONS with 204 and CORS, and any other method with 405 and Allow', async () => {
    const gate = gateWith();
    const at = (method: string): Response => gate.metadata(new Request(`http://127.0.0.1${METADATA_PATH}`, { method }), METADATA_PATH)!;

    const head = at('HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = at('OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    const post = at('POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await post.json()).toMatchObject({ error: 'method_not_allowed', error_description: 'POST is not allowed here' });
  });
});

describe('HttpAuthGate.authenticate: the bearer token', () => {
  it('verifies a good token and gives its AuthInfo: subject, client id, scopes, and where the metadata is', async () => {
    const token = await mintToken(key, { sub: 'alice', scope: 'ledger:write' });
    const info = await authenticate(gateWith(), endpointRequest({ authorization: `Bearer ${token}` }));
    expect(info).not.toBeInstanceOf(Response);
    expect(info).toMatchObject({ token, clientId: 'test-client', scopes: ['ledger:write'], resourceMetadataUrl: METADATA_URL });
    expect((info as AuthInfo).extra?.subject).toBe('alice');
  });

  it('refuses a request without a token with 401 and a challenge naming resource_metadata', async () => {
    const refusal = await refusalOf(await authenticate(gateWith(), endpointRequest()));
    expect(refusal.status).toBe(401);
    expect(refusal.challenge).toMatch(/^Bearer /);
    expect(refusal.challenge).toContain('error="invalid_token"');
    expect(refusal.challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(refusal.body).toEqual({ error: 'invalid_token', error_description: 'Missing Authorization header' });
  });

  it('refuses a token in the query string, even beside a valid Authorization header', async () => {
    const token = await mintToken(key, { sub: 'alice' });
    const refusal = await refusalOf(
      await authenticate(gateWith(), endpointRequest({ authorization: `Bearer ${token}` }, `?access_token=${token}`))
    );
    expect(refusal.status).toBe(401);
    expect(refusal.body).toEqual({
      error: 'invalid_token',
      error_description: 'Access tokens are not accepted in the query string; send an Authorization header'
    });
  });

  it.each([
    ['the Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['two tokens', 'Bearer a.b.c d.e.f'],
    ['extra spaces', 'Bearer   a.b.c'],
    ['characters outside b64token', 'Bearer a.b.c!']
  ])('refuses %s as a malformed Authorization header', async (_name, authorization) => {
    const refusal = await refusalOf(await authenticate(gateWith(), endpointRequest({ authorization })));
    expect(refusal.status).toBe(401);
    expect(refusal.body).toEqual({
      error: 'invalid_token',
      error_description: "Invalid Authorization header format, expected 'Bearer TOKEN'"
    });
  });

  it('refuses an overlong Authorization header unread', async () => {
    const refusal = await refusalOf(await authenticate(gateWith(), endpointRequest({ authorization: `Bearer ${'a'.repeat(17 * 1024)}` })));
    expect(refusal.status).toBe(401);
    expect(refusal.body).toEqual({ error: 'invalid_token', error_description: 'The access token is too long' });
  });

  it('refuses an expired token and one issued for another audience', async () => {
    const expired = await mintToken(key, { sub: 'alice', exp: Math.floor(Date.now() / 1000) - 3600 });
    const elsewhere = await mintToken(key, { sub: 'alice', aud: 'https://other.example.test/mcp' });
    for (const token of [expired, elsewhere]) {
      const refusal = await refusalOf(await authenticate(gateWith(), endpointRequest({ authorization: `Bearer ${token}` })));
      expect(refusal.status).toBe(401);
      expect(refusal.body).toMatchObject({ error: 'invalid_token' });
    }
  });

  it('answers 403 insufficient_scope when the token lacks a scope every request needs, naming it in the challenge', async () => {
    const token = await mintToken(key, { sub: 'alice', scope: 'ledger:write' });
    const refusal = await refusalOf(
      await authenticate(gateWith({ requiredScopes: ['mcp'] }), endpointRequest({ authorization: `Bearer ${token}` }))
    );
    expect(refusal.status).toBe(403);
    expect(refusal.challenge).toContain('error="insufficient_scope"');
    expect(refusal.challenge).toContain('scope="mcp"');
  });

  it('answers 500 when the verifier fails by itself (not the token: no invalid_token challenge)', async () => {
    const broken: OAuthTokenVerifier = {
      verifyAccessToken: () => Promise.reject(new Error('the identity provider is down'))
    };
    const token = await mintToken(key, { sub: 'alice' });
    const refusal = await refusalOf(
      await authenticate(gateWith({ verifier: broken }), endpointRequest({ authorization: `Bearer ${token}` }))
    );
    expect(refusal.status).toBe(500);
    expect(refusal.challenge).toBeNull();
    expect(refusal.body).toEqual({ error: 'server_error', error_description: 'The access token could not be verified' });
  });
});

describe('HttpAuthGate.authorize: the scopes of what a request calls', () => {
  const call = (name: string, id = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

  async function callerWith(scope: string): Promise<AuthInfo> {
    const token = await mintToken(key, { sub: 'alice', scope });
    return (await authenticate(gateWith(), endpointRequest({ authorization: `Bearer ${token}` }))) as AuthInfo;
  }

  it('lets a request through when the token holds what it calls needs, or when it needs nothing', async () => {
    const writer = await callerWith('ledger:write');
    expect(gateWith().authorize(call('ledger.write'), writer)).toBeUndefined();
    expect(gateWith().authorize(call('ledger.read'), await callerWith(''))).toBeUndefined();
  });

  it('refuses 403 insufficient_scope, naming the required scopes and those of the call in the challenge', async () => {
    const reader = await callerWith('ledger:read');
    const refusal = await refusalOf(gateWith({ requiredScopes: ['mcp'] }).authorize(call('ledger.write'), reader));
    expect(refusal.status).toBe(403);
    expect(refusal.challenge).toContain('error="insufficient_scope"');
    expect(refusal.challenge).toContain('scope="mcp ledger:write"');
    expect(refusal.challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(refusal.body).toEqual({ error: 'insufficient_scope', error_description: 'This request needs the scope mcp ledger:write' });
  });

  it('refuses a batch when any request in it needs a scope the token lacks', async () => {
    const reader = await callerWith('ledger:read');
    const refusal = await refusalOf(gateWith().authorize([call('ledger.read'), call('ledger.write', 2)], reader));
    expect(refusal.status).toBe(403);
  });

  it('looks only at requests: a notification (no id), a response, or a value that is not an object is not judged', async () => {
    const reader = await callerWith('ledger:read');
    const gate = gateWith();
    expect(gate.authorize({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'ledger.write' } }, reader)).toBeUndefined();
    expect(gate.authorize({ jsonrpc: '2.0', id: 1, result: {} }, reader)).toBeUndefined();
    expect(gate.authorize('tools/call', reader)).toBeUndefined();
    expect(gate.authorize(null, reader)).toBeUndefined();
  });
});

describe('HttpAuthGate.authorize: a subscriptions/listen is narrowed to what the caller may follow', () => {
  const readScopes: ScopesOfRequest = ({ method, params }) =>
    method === 'resources/read' && (params as { uri?: unknown }).uri === 'ledger://secret' ? ['ledger:read'] : undefined;
  const listen = (notifications: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id: 9,
    method: 'subscriptions/listen',
    params: { notifications }
  });
  const caller = { token: 't', clientId: 'c', scopes: ['other'], extra: {} } as AuthInfo;

  it('leaves out resource subscriptions for URIs the caller may not read, and keeps the others', () => {
    const gate = createHttpAuthGate({ verifier, resource: AUDIENCE, authorizationServers: [ISSUER] }, [], readScopes);
    const body = listen({ resourceSubscriptions: ['ledger://secret', 'ledger://public'], toolsListChanged: true });
    expect(gate.authorize(body, caller)).toBeUndefined();
    expect(body.params.notifications).toEqual({ resourceSubscriptions: ['ledger://public'], toolsListChanged: true });
    const allowed = listen({ resourceSubscriptions: ['ledger://secret'] });
    gate.authorize(allowed, { ...caller, scopes: ['ledger:read'] });
    expect(allowed.params.notifications).toEqual({ resourceSubscriptions: ['ledger://secret'] });
  });

  it('drops list-changed subscriptions for lists the caller can see nothing of', () => {
    const gate = createHttpAuthGate({ verifier, resource: AUDIENCE, authorizationServers: [ISSUER] }, [], readScopes, () => ({
      tools: true,
      resources: false,
      prompts: false
    }));
    const body = listen({ toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
    gate.authorize(body, caller);
    expect(body.params.notifications).toEqual({ toolsListChanged: true });
  });
});
