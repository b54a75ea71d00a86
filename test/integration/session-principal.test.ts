/**
 * 2025-era sessions are bound to the caller as the app's `principalOf` names it, over real HTTP
 * on 127.0.0.1 with real JWTs: here a tenant claim, so a session opened by one member of a
 * tenant serves every member of that tenant and no one outside it. Without `principalOf` the
 * default applies (the token's subject), so another subject is refused even within the tenant.
 * A refused caller is told the session does not exist (404, -32001): a session id is not a
 * credential.
 */
import { Ctx, FusionApp, ToolProvider, Action, jwtVerifier, type CallContext, type RequestExtra } from '../../src';
import { AUDIENCE, ISSUER, JwksServer, jwksOf, mintToken, signingKey, type SigningKey } from '../helpers/auth-fixtures';
import { freshId, postRaw, responseOf, type RawAnswer } from '../helpers/raw-http';

const VERSION = '2025-06-18';

@ToolProvider()
class WhoamiTools {
  @Action('whoami', { description: 'Say who the token belongs to' })
  whoami(@Ctx() ctx: CallContext) {
    return ctx.auth?.subject ?? 'nobody';
  }
}

/** The principal of a tenant app: the token's `tenant` claim. */
const tenantOf = (extra: RequestExtra): string | undefined => {
  const tenant = (extra.authInfo?.extra?.claims as Record<string, unknown> | undefined)?.tenant;
  return typeof tenant === 'string' ? `tenant:${tenant}` : undefined;
};

let key: SigningKey;
let jwks: JwksServer;
const running: FusionApp[] = [];

beforeAll(async () => {
  key = await signingKey('k1');
  jwks = await new JwksServer(jwksOf(key)).start();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.close()));
});

afterAll(async () => {
  await jwks.close();
});

async function startApp(principalOf?: (extra: RequestExtra) => string | undefined): Promise<URL> {
  const app = FusionApp.create({
    tools: [WhoamiTools],
    auth: {
      verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwks.url }),
      resource: AUDIENCE,
      authorizationServers: [ISSUER]
    },
    ...(principalOf ? { principalOf } : {}),
    logger: () => {}
  });
  running.push(app);
  const { url } = (await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as { url: URL };
  return url;
}

const tokenOf = (sub: string, tenant: string): Promise<string> => mintToken(key, { sub, tenant });

/** Opens a 2025-era session with this token (initialize, then initialized); its headers for later requests. */
async function openSession(url: URL, token: string): Promise<Record<string, string>> {
  const authorization = `Bearer ${token}`;
  const init = await postRaw(
    url,
    {
      jsonrpc: '2.0',
      id: freshId(),
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
    },
    { authorization }
  );
  const sessionId = init.headers.get('mcp-session-id');
  expect(init.status).toBe(200);
  expect(sessionId).toBeTruthy();
  const headers = { 'mcp-session-id': sessionId!, 'mcp-protocol-version': VERSION };
  const initialized = await postRaw(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, authorization });
  expect(initialized.status).toBe(202);
  return headers;
}

/** Calls `whoami` on a session with this token. */
function whoamiOn(url: URL, session: Record<string, string>, token: string): Promise<RawAnswer> {
  return postRaw(
    url,
    { jsonrpc: '2.0', id: freshId(), method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    { ...session, authorization: `Bearer ${token}` }
  );
}

const subjectAnswered = (answer: RawAnswer): string =>
  ((responseOf(answer).result as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;

function expectSessionNotFound(answer: RawAnswer): void {
  expect(answer.status).toBe(404);
  expect(answer.messages[0]).toEqual({
    jsonrpc: '2.0',
    error: { code: -32001, message: 'Session not found: start a new session with initialize' },
    id: null
  });
}

describe('2025-era sessions and principalOf', () => {
  it('a session opened by one member of a tenant serves another member of it, when principalOf names the tenant', async () => {
    const url = await startApp(tenantOf);
    const alice = await tokenOf('alice', 'acme');
    const bob = await tokenOf('bob', 'acme');
    const session = await openSession(url, alice);

    const asAlice = await whoamiOn(url, session, alice);
    expect(asAlice.status).toBe(200);
    expect(subjectAnswered(asAlice)).toBe('alice');
    const asBob = await whoamiOn(url, session, bob);
    expect(asBob.status).toBe(200);
    expect(subjectAnswered(asBob)).toBe('bob');
  });

  it('a caller of another tenant is told the session does not exist, whatever its subject', async () => {
    const url = await startApp(tenantOf);
    const session = await openSession(url, await tokenOf('alice', 'acme'));

    expectSessionNotFound(await whoamiOn(url, session, await tokenOf('carol', 'globex')));
    // The same subject under another tenant is another principal too.
    expectSessionNotFound(await whoamiOn(url, session, await tokenOf('alice', 'globex')));
  });

  it('without principalOf, a session is bound to the token subject: another member of the tenant is refused', async () => {
    const url = await startApp();
    const session = await openSession(url, await tokenOf('alice', 'acme'));

    expectSessionNotFound(await whoamiOn(url, session, await tokenOf('bob', 'acme')));
    expect(subjectAnswered(await whoamiOn(url, session, await tokenOf('alice', 'acme')))).toBe('alice');
  });

  it('principalOf sees what the HTTP request knows when a session is bound: the token, the request, the 2025 era, no call yet', async () => {
    const seen: RequestExtra[] = [];
    const url = await startApp((extra) => {
      seen.push(extra);
      return tenantOf(extra);
    });
    await openSession(url, await tokenOf('alice', 'acme'));

    // The first extra is the initialize's: no call exists yet, so no session, tool or arguments.
    const [atOpen] = seen;
    expect(atOpen.era).toBe('legacy');
    expect(atOpen.sessionId).toBeUndefined();
    expect(atOpen.toolName).toBe('');
    expect(atOpen.arguments).toEqual({});
    expect(atOpen.signal.aborted).toBe(false);
    expect(atOpen.httpRequest).toBeInstanceOf(Request);
    expect(atOpen.httpRequest?.method).toBe('POST');
    expect(atOpen.authInfo?.extra?.subject).toBe('alice');
  });
});
