/**
 * Bearer tokens over real HTTP on 127.0.0.1: a FusionApp with `auth` and `jwtVerifier` on a
 * JWKS served by a real HTTP server. Every refusal is the same RFC 6750 answer (401,
 * `WWW-Authenticate` naming `resource_metadata`, an OAuth error body) and repeats nothing of
 * the token; a good token works from the SDK client in both eras; keys rotate as documented
 * (one fetch serves many tokens, an unknown `kid` refetches after the cooldown, a removed key
 * lives until the cache is stale); the RFC 9728 document is what a client discovers; and a JWKS
 * that cannot be fetched is the server's fault (500), not the token's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/client';
import { Action, Ctx, FusionApp, ToolProvider, jwtVerifier, type CallContext } from '../../src';
import { AUDIENCE, ISSUER, JwksServer, jwksOf, mintToken, signingKey, unsignedToken, type SigningKey } from '../helpers/auth-fixtures';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';

const SCOPE = 'billing:read';
/** Where the challenge sends clients: derived from `auth.resource` (AUDIENCE), not from the host that answered. */
const RESOURCE_METADATA = 'https://billing.example.test/.well-known/oauth-protected-resource/mcp';

@ToolProvider()
class WhoamiTools {
  @Action('whoami', { description: 'Say who the token belongs to', scopes: [SCOPE] })
  whoami(@Ctx() ctx: CallContext) {
    return ctx.auth?.subject ?? 'nobody';
  }
}

interface Running {
  app: FusionApp;
  url: URL;
}

async function startApp(jwks: URL): Promise<Running> {
  const app = FusionApp.create({
    name: 'billing',
    version: '1.0.0',
    tools: [WhoamiTools],
    auth: { verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks }), resource: AUDIENCE, authorizationServers: [ISSUER] }
  });
  const { url } = (await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as { url: URL };
  return { app, url };
}

/** A good token: the tool's scope, a subject to recognise it by. */
const goodToken = (key: SigningKey, sub = 'alice') => mintToken(key, { sub, scope: SCOPE });

type Shape = 'tools/call (2026-07-28)' | 'initialize (2025-06-18)';

/** A valid request of either era, so a refusal can only be about the credentials. */
function requestOf(shape: Shape): { body: string; headers: Record<string, string> } {
  if (shape === 'tools/call (2026-07-28)') return modernRequest('tools/call', { name: 'whoami', arguments: {} });
  return {
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
    }),
    headers: {}
  };
}

/** POSTs a request of `shape` with these credentials (`query` is appended to the endpoint URL). */
async function send(url: URL, shape: Shape, credentials: { authorization?: string; query?: string }): Promise<Response> {
  const { body, headers } = requestOf(shape);
  const target = new URL(url);
  if (credentials.query) target.search = credentials.query;
  return fetch(target, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
      ...(credentials.authorization !== undefined ? { authorization: credentials.authorization } : {})
    },
    body
  });
}

/** Calls `whoami` with a bearer token as a 2026-era raw request; the subject, or the HTTP refusal. */
async function whoami(url: URL, token: string): Promise<{ status: number; subject?: string; body?: Record<string, unknown> }> {
  const { body, headers } = modernRequest('tools/call', { name: 'whoami', arguments: {} });
  const answer = await postRaw(url, body, { ...headers, authorization: `Bearer ${token}` });
  if (answer.status !== 200) return { status: answer.status, body: answer.messages[0] };
  const result = responseOf(answer).result as { content: Array<{ text: string }> };
  return { status: 200, subject: result.content[0].text };
}

/** The parts of a JWT an answer must never echo: the whole token, its payload and signature segments. */
const partsOf = (token: string): string[] => [
  token,
  ...token
    .split('.')
    .slice(1)
    .filter((part) => part.length > 0)
];

/** What one bad-token case sends, and what the answer must not repeat. */
interface BadCase {
  authorization?: string;
  query?: string;
  secrets: string[];
}

interface Kit {
  key: SigningKey;
  stranger: SigningKey;
  good: string;
}

const INTRUDER = 'mallory-the-intruder';
const now = () => Math.floor(Date.now() / 1000);
const FORMAT = "Invalid Authorization header format, expected 'Bearer TOKEN'";

/** Each case: its name, the `error_description` it is refused with, and how to build it. */
const badCases: Array<[string, string, (kit: Kit) => Promise<BadCase>]> = [
  ['no Authorization header', 'Missing Authorization header', async () => ({ secrets: [] })],
  [
    'the Basic scheme',
    FORMAT,
    async () => {
      const credential = Buffer.from(`${INTRUDER}:hunter2`).toString('base64');
      return { authorization: `Basic ${credential}`, secrets: [credential, INTRUDER, 'hunter2'] };
    }
  ],
  [
    'Bearer with two tokens',
    FORMAT,
    async ({ key }) => {
      const [a, b] = [await mintToken(key, { sub: INTRUDER, scope: SCOPE }), await mintToken(key, { sub: INTRUDER, scope: SCOPE })];
      return { authorization: `Bearer ${a} ${b}`, secrets: [...partsOf(a), ...partsOf(b), INTRUDER] };
    }
  ],
  [
    'Bearer with extra spaces',
    FORMAT,
    async ({ key }) => {
      const token = await mintToken(key, { sub: INTRUDER, scope: SCOPE });
      return { authorization: `Bearer   ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  ['a malformed JWT (abc.def)', 'The access token is malformed', async () => ({ authorization: 'Bearer abc.def', secrets: ['abc.def'] })],
  [
    'an unsigned token (alg: none)',
    'The access token is signed with an algorithm this server does not accept',
    async () => {
      const token = unsignedToken({ iss: ISSUER, aud: AUDIENCE, sub: INTRUDER, scope: SCOPE, exp: now() + 3600 });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    'a key id the JWKS does not hold',
    'The access token is signed with a key this server does not know',
    async ({ stranger }) => {
      const token = await mintToken(stranger, { sub: INTRUDER, scope: SCOPE });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    "a known key id on another key's signature",
    'The access token signature is not valid',
    async ({ key, stranger }) => {
      const token = await mintToken(stranger, { sub: INTRUDER, scope: SCOPE }, { kid: key.kid });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    "one token's payload with another's signature",
    'The access token signature is not valid',
    async ({ key, good }) => {
      const forged = await mintToken(key, { sub: INTRUDER, scope: SCOPE });
      const [header, payload] = forged.split('.');
      const token = [header, payload, good.split('.')[2]].join('.');
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    'an expired token (beyond the 5 s tolerance)',
    'The access token has expired',
    async ({ key }) => {
      const token = await mintToken(key, { sub: INTRUDER, scope: SCOPE, iat: now() - 3600, exp: now() - 60 });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    'a token not valid yet (nbf)',
    'The access token is not valid yet (nbf)',
    async ({ key }) => {
      const token = await mintToken(key, { sub: INTRUDER, scope: SCOPE, nbf: now() + 600 });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    'another issuer',
    'The access token was issued by an issuer this server does not trust',
    async ({ key }) => {
      const token = await mintToken(key, { sub: INTRUDER, scope: SCOPE, iss: 'https://evil.example.test' });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER, 'evil.example.test'] };
    }
  ],
  [
    'another audience',
    'The access token was not issued for this server (audience)',
    async ({ key }) => {
      const token = await mintToken(key, { sub: INTRUDER, scope: SCOPE, aud: 'https://other.example.test/mcp' });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER, 'other.example.test'] };
    }
  ],
  [
    'a token without exp',
    'The access token has no valid expiry (exp)',
    async ({ key }) => {
      const token = await mintToken(key, { sub: INTRUDER, scope: SCOPE, exp: false });
      return { authorization: `Bearer ${token}`, secrets: [...partsOf(token), INTRUDER] };
    }
  ],
  [
    'a good token in the query string, with a good header too',
    'Access tokens are not accepted in the query string; send an Authorization header',
    async ({ good }) => ({ authorization: `Bearer ${good}`, query: `?access_token=${good}`, secrets: partsOf(good).slice(1) })
  ],
  [
    'a 100 KB Authorization header',
    'The access token is too long',
    async () => ({ authorization: `Bearer ${'a'.repeat(100_000)}`, secrets: ['a'.repeat(32)] })
  ]
];

describe('bad bearer tokens: 401 invalid_token, and nothing of the token in the answer', () => {
  let jwks: JwksServer;
  let running: Running;
  let kit: Kit;

  beforeAll(async () => {
    const key = await signingKey('key-1');
    const stranger = await signingKey('key-stranger');
    jwks = await new JwksServer(jwksOf(key)).start();
    running = await startApp(jwks.url);
    kit = { key, stranger, good: await goodToken(key) };
  });
  afterAll(async () => {
    await running?.app.close();
    await jwks?.close();
  });

  describe.each<Shape>(['tools/call (2026-07-28)', 'initialize (2025-06-18)'])('as a %s', (shape) => {
    it.each(badCases)('%s', async (_name, description, build) => {
      const bad = await build(kit);
      const res = await send(running.url, shape, bad);
      const challenge = res.headers.get('www-authenticate') ?? '';
      const text = await res.text();

      expect(res.status).toBe(401);
      expect(challenge.startsWith('Bearer ')).toBe(true);
      expect(challenge).toContain('error="invalid_token"');
      expect(challenge).toContain(`resource_metadata="${RESOURCE_METADATA}"`);
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(body).toEqual({ error: 'invalid_token', error_description: description });
      expect(challenge).toContain(`error_description="${description}"`);
      for (const secret of bad.secrets) {
        expect(challenge).not.toContain(secret);
        expect(text).not.toContain(secret);
      }
    });
  });

  it('still serves a good token after every refusal', async () => {
    expect(await whoami(running.url, kit.good)).toEqual({ status: 200, subject: 'alice' });
  });
});

describe('a good token over the SDK client', () => {
  let jwks: JwksServer;
  let running: Running;
  let token: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    const key = await signingKey('key-1', 'RS256');
    jwks = await new JwksServer(jwksOf(key)).start();
    running = await startApp(jwks.url);
    token = await goodToken(key, 'bob');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await running?.app.close();
    await jwks?.close();
  });

  const transport = () => new StreamableHTTPClientTransport(running.url, { authProvider: { token: async () => token } });
  const subjectOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

  it('2025 era (initialize and a session): callTool sees the subject', async () => {
    const client = new Client({ name: 't', version: '1' });
    clients.push(client);
    await client.connect(transport());
    expect(client.getProtocolEra()).toBe('legacy');
    expect(subjectOf((await client.callTool({ name: 'whoami' })) as { content: unknown[] })).toBe('bob');
  });

  it('2026 era (pinned 2026-07-28): callTool sees the subject', async () => {
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    clients.push(client);
    await client.connect(transport());
    expect(client.getProtocolEra()).toBe('modern');
    expect(subjectOf((await client.callTool({ name: 'whoami' })) as { content: unknown[] })).toBe('bob');
  });
});

describe('key rotation with a JWKS URL', () => {
  let jwks: JwksServer | undefined;
  let running: Running | undefined;
  afterEach(async () => {
    jest.restoreAllMocks();
    await running?.app.close();
    await jwks?.close();
    running = undefined;
    jwks = undefined;
  });

  async function serve(...keys: SigningKey[]): Promise<URL> {
    jwks = await new JwksServer(jwksOf(...keys)).start();
    running = await startApp(jwks.url);
    return running.url;
  }

  it('fetches the JWKS once for many verifications', async () => {
    const key = await signingKey('key-1');
    const url = await serve(key);
    expect(jwks!.hits).toBe(0);
    for (const sub of ['alice', 'bob', 'carol', 'alice']) {
      expect(await whoami(url, await goodToken(key, sub))).toEqual({ status: 200, subject: sub });
    }
    expect(jwks!.hits).toBe(1);
  });

  it('a new key id is refused within the 30 s cooldown and accepted after it, with a fresh fetch', async () => {
    const old = await signingKey('key-old');
    const url = await serve(old);
    expect(await whoami(url, await goodToken(old))).toEqual({ status: 200, subject: 'alice' });
    expect(jwks!.hits).toBe(1);

    const fresh = await signingKey('key-new');
    jwks!.setKeys(jwksOf(old, fresh));
    const token = await goodToken(fresh, 'newcomer');
    const refused = await whoami(url, token);
    expect(refused).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'The access token is signed with a key this server does not know' }
    });
    expect(jwks!.hits).toBe(1);

    const realNow = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(realNow + 31_000);
    expect(await whoami(url, token)).toEqual({ status: 200, subject: 'newcomer' });
    expect(jwks!.hits).toBe(2);
    expect(await whoami(url, await goodToken(old, 'still-old'))).toEqual({ status: 200, subject: 'still-old' });
    expect(jwks!.hits).toBe(2);
  });

  it('a removed key is accepted while the cache is fresh and refused once it is older than 10 minutes', async () => {
    const kept = await signingKey('key-kept');
    const removed = await signingKey('key-removed');
    const url = await serve(kept, removed);
    const token = await goodToken(removed, 'leaver');
    expect(await whoami(url, token)).toEqual({ status: 200, subject: 'leaver' });

    jwks!.setKeys(jwksOf(kept));
    expect(await whoami(url, token)).toEqual({ status: 200, subject: 'leaver' });
    expect(jwks!.hits).toBe(1);

    const realNow = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(realNow + 600_000 + 1_000);
    expect(await whoami(url, token)).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: 'The access token is signed with a key this server does not know' }
    });
    expect(jwks!.hits).toBe(2);
    expect(await whoami(url, await goodToken(kept, 'stayer'))).toEqual({ status: 200, subject: 'stayer' });
    expect(jwks!.hits).toBe(2);
  });
});

describe('the protected resource metadata (RFC 9728)', () => {
  let jwks: JwksServer;
  let running: Running;
  beforeAll(async () => {
    jwks = await new JwksServer(jwksOf(await signingKey('key-1'))).start();
    running = await startApp(jwks.url);
  });
  afterAll(async () => {
    await running?.app.close();
    await jwks?.close();
  });

  const expected = {
    resource: AUDIENCE,
    authorization_servers: [ISSUER],
    scopes_supported: [SCOPE],
    bearer_methods_supported: ['header']
  };

  it('is what the SDK client discovers, at the path-aware URL first, with no token', async () => {
    const asked: string[] = [];
    const metadata = await discoverOAuthProtectedResourceMetadata(running.url, undefined, (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    });
    expect(metadata).toEqual(expected);
    expect(asked).toEqual([new URL('/.well-known/oauth-protected-resource/mcp', running.url).href]);
    expect(jwks.hits).toBe(0);
  });

  it.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
    '%s answers GET with the document and CORS, OPTIONS with 204, and POST with 405',
    async (path) => {
      const target = new URL(path, running.url);
      const got = await fetch(target);
      expect(got.status).toBe(200);
      expect(got.headers.get('access-control-allow-origin')).toBe('*');
      expect(got.headers.get('content-type')).toContain('application/json');
      expect(await got.json()).toEqual(expected);

      const preflight = await fetch(target, { method: 'OPTIONS' });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');

      const posted = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(posted.status).toBe(405);
      expect(posted.headers.get('access-control-allow-origin')).toBe('*');
      expect(posted.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(await posted.json()).toEqual({ error: 'method_not_allowed', error_description: 'POST is not allowed here' });
    }
  );
});

describe('a JWKS that cannot be fetched', () => {
  it('answers 500 server_error when the JWKS server is gone (connection refused), and the server stays up', async () => {
    const gone = await new JwksServer(jwksOf(key)).start();
    await gone.close();
    const orphan = await startApp(gone.url);
    try {
      const { body, headers } = modernRequest('tools/call', { name: 'whoami', arguments: {} });
      const res = await fetch(orphan.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
          authorization: `Bearer ${await goodToken(key, 'x')}`
        },
        body
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'server_error', error_description: 'The authorization server keys could not be fetched' });
      expect((await fetch(new URL('/.well-known/oauth-protected-resource', orphan.url))).status).toBe(200);
    } finally {
      await orphan.app.close();
    }
  });

  let jwks: Server;
  let up = false;
  let hits = 0;
  let running: Running;
  let key: SigningKey;
  beforeAll(async () => {
    key = await signingKey('key-1');
    // An authorization server that is down: 503 until `up`, then the keys.
    jwks = createServer((_req, res) => {
      hits++;
      if (up) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwksOf(key)));
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    running = await startApp(new URL(`http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`));
  });
  afterAll(async () => {
    await running?.app.close();
    jwks?.closeAllConnections();
    await new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve()));
  });

  it('answers 500 server_error (the token is not at fault), without a challenge, and the server stays up', async () => {
    const token = await goodToken(key, 'patient');
    for (let attempt = 1; attempt <= 2; attempt++) {
      const { body, headers } = modernRequest('tools/call', { name: 'whoami', arguments: {} });
      const res = await fetch(running.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
          authorization: `Bearer ${token}`
        },
        body
      });
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(JSON.parse(text)).toEqual({ error: 'server_error', error_description: 'The authorization server keys could not be fetched' });
      expect(text).not.toContain(token.split('.')[1]);
      // A failed fetch is not cached: every request tries again.
      expect(hits).toBe(attempt);
    }
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource', running.url));
    expect(metadata.status).toBe(200);
    await metadata.arrayBuffer();

    up = true;
    expect(await whoami(running.url, token)).toEqual({ status: 200, subject: 'patient' });
    expect(hits).toBe(3);
  });
});
