/**
 * What a bearer token may claim, over real HTTP on 127.0.0.1 with real JWTs (issue 21: token
 * type, whose principal, documented leeway): JWTs of other types are not access tokens; a
 * machine client is never the same principal as a user, even when its id equals the user's
 * subject; and the clock tolerance the README documents is what the server applies.
 */
import { Action, FusionApp, Mutation, ToolProvider, jwtVerifier, type JwtVerifierOptions } from '../../src';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey, type SigningKey } from '../helpers/auth-fixtures';
import { modernRequest, postRaw, responseOf } from '../helpers/raw-http';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

@ToolProvider()
class Desk {
  @Action('desk.ping', { description: 'Answers pong.' })
  ping() {
    return 'pong';
  }

  @Mutation('desk.job', { description: 'A job run as a task from its start.', task: { support: 'optional', create: 'at-once' } })
  job() {
    return 'done';
  }
}

let key: SigningKey;
beforeAll(async () => {
  key = await signingKey('k1');
});

async function start(verifier: Partial<JwtVerifierOptions> = {}): Promise<{ app: FusionApp; url: URL }> {
  const app = FusionApp.create({
    tools: [Desk],
    auth: {
      verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key), ...verifier }),
      resource: AUDIENCE,
      authorizationServers: [ISSUER]
    }
  });
  const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
  return { app, url };
}

/** A 2026-07-28 call with this token: the HTTP status and the JSON-RPC answer. */
async function call(
  url: URL,
  token: string,
  method = 'tools/call',
  params: Record<string, unknown> = { name: 'desk.ping', arguments: {} }
) {
  const { body, headers } = modernRequest(method, params, { capabilities: TASKS });
  const name: Record<string, string> = typeof params.taskId === 'string' ? { 'mcp-name': params.taskId } : {};
  const answer = await postRaw(url, body, { ...headers, ...name, authorization: `Bearer ${token}` });
  return { status: answer.status, answer: answer.status === 200 ? responseOf(answer) : undefined, headers: answer.headers };
}

describe('token type (RFC 9068 §4)', () => {
  it.each(['logout+jwt', 'secevent+jwt', 'dpop+jwt', 'application/logout+jwt', 'id_token+jwt'])(
    'refuses a JWT typed %s as an access token (401 invalid_token)',
    async (typ) => {
      const { app, url } = await start();
      const res = await call(url, await mintToken(key, { sub: 'alice' }, { typ }));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      await app.close();
    }
  );

  it.each([['at+jwt'], ['application/at+jwt'], ['AT+JWT'], ['JWT'], [false]] as const)('accepts typ %s', async (typ) => {
    const { app, url } = await start();
    const res = await call(url, await mintToken(key, { sub: 'alice' }, { typ }));
    expect(res.status).toBe(200);
    expect(res.answer?.result?.content).toEqual([{ type: 'text', text: 'pong' }]);
    await app.close();
  });

  it('with requireAccessTokenType, accepts at+jwt only', async () => {
    const { app, url } = await start({ requireAccessTokenType: true });
    expect((await call(url, await mintToken(key, { sub: 'alice' }, { typ: 'at+jwt' }))).status).toBe(200);
    expect((await call(url, await mintToken(key, { sub: 'alice' }, { typ: 'JWT' }))).status).toBe(401);
    expect((await call(url, await mintToken(key, { sub: 'alice' }, { typ: false }))).status).toBe(401);
    await app.close();
  });
});

describe('whose principal: a machine client is never a user', () => {
  it("a client whose id equals a user's subject does not see that user's tasks; the user does, through any client", async () => {
    const { app, url } = await start();
    try {
      const alice = await mintToken(key, { sub: 'alice', client_id: 'billing-app' });
      const created = await call(url, alice, 'tools/call', { name: 'desk.job', arguments: {} });
      const taskId = created.answer?.result?.taskId as string;
      expect(created.answer?.result?.resultType).toBe('task');

      // A client-credentials token of a client registered as "alice": no subject, or its own id as subject.
      for (const machine of [await mintToken(key, { client_id: 'alice' }), await mintToken(key, { sub: 'alice', client_id: 'alice' })]) {
        const res = await call(url, machine, 'tasks/get', { taskId });
        expect(res.answer?.error).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
      }
      const viaOtherApp = await call(url, await mintToken(key, { sub: 'alice', client_id: 'mobile-app' }), 'tasks/get', { taskId });
      expect(viaOtherApp.answer?.result?.taskId).toBe(taskId);
    } finally {
      await app.close();
    }
  });
});

describe('documented leeway: tokens get 5 s of clock tolerance', () => {
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a token that expired 2 s ago, within the tolerance', async () => {
    const { app, url } = await start();
    expect((await call(url, await mintToken(key, { sub: 'alice', exp: now() - 2 }))).status).toBe(200);
    await app.close();
  });

  it('refuses a token that expired 10 s ago, past the tolerance', async () => {
    const { app, url } = await start();
    const res = await call(url, await mintToken(key, { sub: 'alice', exp: now() - 10 }));
    expect(res.status).toBe(401);
    await app.close();
  });

  it('a tolerance of 0 refuses a token that expired 2 s ago', async () => {
    const { app, url } = await start({ clockToleranceSeconds: 0 });
    expect((await call(url, await mintToken(key, { sub: 'alice', exp: now() - 2 }))).status).toBe(401);
    await app.close();
  });
});
