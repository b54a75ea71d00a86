import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { inject, injectable } from 'tsyringe';
import {
  Action,
  CALL_AUTH,
  ConfigurationError,
  Ctx,
  FusionApp,
  Mutation,
  Prompt,
  ResourceTemplate,
  ToolProvider,
  jwtVerifier,
  type AuthOptions,
  type CallContext,
  type CallerAuth
} from '../../src';
import { AUDIENCE, ISSUER, bearerFetch, jwksOf, mintToken, signingKey, type SigningKey } from '../helpers/auth-fixtures';
import { freshId, modernRequest, postRaw, responseOf } from '../helpers/raw-http';
import { InteractiveTools, Ledger } from '../fixtures/interactive-tools';

/** What the handlers saw: a tool that was refused must leave no trace here. */
class Probe {
  runs: string[] = [];
}

@injectable()
class WhoIsCalling {
  constructor(@inject(CALL_AUTH) readonly auth: CallerAuth | undefined) {}
}

@ToolProvider({ scopes: ['ledger:read'] })
class LedgerTools {
  constructor(
    private readonly probe: Probe,
    private readonly who: WhoIsCalling
  ) {}

  @Action('ledger.read', { description: 'Read the ledger (class scope)' })
  read(@Ctx() ctx: CallContext) {
    this.probe.runs.push('read');
    return { subject: ctx.auth?.subject ?? null, scopes: ctx.auth?.scopes ?? null, viaDi: this.who.auth?.subject ?? null };
  }

  @Mutation('ledger.write', { description: 'Write the ledger (own scope)', scopes: ['ledger:write'] })
  write() {
    this.probe.runs.push('write');
    return 'written';
  }

  @Action('ledger.both', { description: 'Needs two scopes', scopes: ['ledger:read', 'ledger:audit'] })
  both() {
    this.probe.runs.push('both');
    return 'both';
  }

  @Action('ledger.open', { description: 'No scope of its own beyond the class', scopes: [] })
  open(@Ctx() ctx: CallContext) {
    this.probe.runs.push('open');
    return { hasToken: 'token' in (ctx.auth ?? {}), claims: ctx.auth?.claims.sub ?? null };
  }

  @ResourceTemplate('ledger://entries/{id}', { name: 'entry', scopes: ['ledger:read'] })
  entry() {
    this.probe.runs.push('entry');
    return 'entry';
  }

  @Prompt('ledger.summary', { description: 'Summarise the ledger', scopes: ['ledger:audit'] })
  summary() {
    this.probe.runs.push('summary');
    return 'Summarise it.';
  }
}

let key: SigningKey;
beforeAll(async () => {
  key = await signingKey('scopes-key');
});

function authOptions(extra: Partial<AuthOptions> = {}): AuthOptions {
  return {
    verifier: jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: jwksOf(key) }),
    resource: AUDIENCE,
    authorizationServers: [ISSUER],
    ...extra
  };
}

const token = (scope: string, sub = 'alice') => mintToken(key, { sub, scope });
const challengeUrl = 'https://billing.example.test/.well-known/oauth-protected-resource/mcp';

describe('scopes declared on tools, resources and prompts', () => {
  let app: FusionApp;
  let url: URL;
  let probe: Probe;

  async function start(extra: Partial<AuthOptions> = {}): Promise<void> {
    probe = new Probe();
    app = FusionApp.create({
      tools: [LedgerTools],
      providers: [
        { provide: Probe, useValue: probe },
        { provide: WhoIsCalling, useClass: WhoIsCalling, singleton: false }
      ],
      auth: authOptions(extra)
    });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  }
  afterEach(async () => {
    await app?.close();
  });

  async function callRaw(tool: string, bearer: string) {
    const { body, headers } = modernRequest('tools/call', { name: tool, arguments: {} });
    return postRaw(url, body, { ...headers, authorization: `Bearer ${bearer}` });
  }

  it('through toolSearch: call_tool needs the scopes of the tool it names (403 naming them), and a search shows only what the token allows', async () => {
    probe = new Probe();
    app = FusionApp.create({
      tools: [LedgerTools],
      providers: [
        { provide: Probe, useValue: probe },
        { provide: WhoIsCalling, useClass: WhoIsCalling, singleton: false }
      ],
      auth: authOptions({ listing: 'allowed' }),
      toolSearch: true
    });
    ({ url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
    const send = async (name: string, args: Record<string, unknown>, scope: string) => {
      const { body, headers } = modernRequest('tools/call', { name, arguments: args });
      return postRaw(url, body, { ...headers, authorization: `Bearer ${await token(scope)}` });
    };
    const refused = await send('call_tool', { name: 'ledger.write' }, 'ledger:read');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="ledger:write"');
    expect(probe.runs).toEqual([]);
    const allowed = await send('call_tool', { name: 'ledger.write' }, 'ledger:read ledger:write');
    expect(allowed.status).toBe(200);
    expect(probe.runs).toEqual(['write']);
    const names = async (scope: string) => {
      const result = responseOf(await send('search_tools', { query: 'write the ledger', limit: 10 }, scope)).result as {
        structuredContent: { tools: { name: string }[] };
      };
      return result.structuredContent.tools.map((tool) => tool.name);
    };
    expect(await names('ledger:read')).not.toContain('ledger.write');
    expect(await names('ledger:read ledger:write')).toContain('ledger.write');
  });

  it('a token without the scope gets 403 insufficient_scope naming it, and nothing of the chain runs (2026-07-28)', async () => {
    await start();
    const answer = await callRaw('ledger.write', await token('ledger:read'));
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="This request needs the scope ledger:write", scope="ledger:write", resource_metadata="${challengeUrl}"`
    );
    expect(answer.messages).toEqual([{ error: 'insufficient_scope', error_description: 'This request needs the scope ledger:write' }]);
    expect(probe.runs).toEqual([]);
    expect(app.activeCalls).toBe(0);
    const allowed = await callRaw('ledger.write', await token('ledger:read ledger:write'));
    expect(allowed.status).toBe(200);
    expect(probe.runs).toEqual(['write']);
  });

  it('the challenge lists every scope the member needs, with the endpoint-wide ones', async () => {
    await start({ requiredScopes: ['mcp'] });
    const answer = await callRaw('ledger.both', await token('mcp ledger:read'));
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain('scope="mcp ledger:read ledger:audit"');
    // The endpoint-wide scope is asked of every request, listing included.
    const { body, headers } = modernRequest('tools/list', {});
    const list = await postRaw(url, body, { ...headers, authorization: `Bearer ${await token('ledger:read')}` });
    expect(list.status).toBe(403);
    expect(list.headers.get('www-authenticate')).toContain('scope="mcp"');
    expect(probe.runs).toEqual([]);
  });

  it('resources, templates and prompts are refused the same way', async () => {
    await start();
    const reader = await token('ledger:read');
    const read = modernRequest('resources/read', { uri: 'ledger://entries/1' });
    expect((await postRaw(url, read.body, { ...read.headers, authorization: `Bearer ${await token('other')}` })).status).toBe(403);
    expect((await postRaw(url, read.body, { ...read.headers, authorization: `Bearer ${reader}` })).status).toBe(200);
    const prompt = modernRequest('prompts/get', { name: 'ledger.summary' });
    const refused = await postRaw(url, prompt.body, { ...prompt.headers, authorization: `Bearer ${reader}` });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('scope="ledger:audit"');
    const completion = modernRequest('completion/complete', {
      ref: { type: 'ref/prompt', name: 'ledger.summary' },
      argument: { name: 'x', value: '' }
    });
    expect((await postRaw(url, completion.body, { ...completion.headers, authorization: `Bearer ${reader}` })).status).toBe(403);
    expect(probe.runs).toEqual(['entry']);
  });

  it('a 2025-era session over the SDK client gets the same 403 (the client sees the challenge) and can step up', async () => {
    await start();
    let current = await token('ledger:read');
    const seen: Array<{ status: number; challenge: string | null }> = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await bearerFetch(() => current)(input, init);
      seen.push({ status: res.status, challenge: res.headers.get('www-authenticate') });
      return res;
    };
    const client = new Client({ name: 'legacy', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording }));
    expect(client.getNegotiatedProtocolVersion?.() ?? '2025').not.toBe('2026-07-28');
    const read = await client.callTool({ name: 'ledger.read', arguments: {} });
    expect(read.structuredContent ?? JSON.parse((read.content as Array<{ text: string }>)[0].text)).toMatchObject({ subject: 'alice' });
    await expect(client.callTool({ name: 'ledger.write', arguments: {} })).rejects.toThrow(/Insufficient scope: required "ledger:write"/);
    expect(seen.at(-1)).toEqual({
      status: 403,
      challenge: `Bearer error="insufficient_scope", error_description="This request needs the scope ledger:write", scope="ledger:write", resource_metadata="${challengeUrl}"`
    });
    expect(probe.runs).toEqual(['read']);
    // Step up: the same session, a token that grants the scope (same subject).
    current = await token('ledger:read ledger:write');
    const written = await client.callTool({ name: 'ledger.write', arguments: {} });
    expect(written.isError).toBeFalsy();
    expect(probe.runs).toEqual(['read', 'write']);
    await client.close();
  });

  it('a 2026-era SDK client (authProvider) gets the refusal too', async () => {
    await start();
    const bearer = await token('ledger:read');
    const client = new Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: { token: async () => bearer } }));
    const read = await client.callTool({ name: 'ledger.read', arguments: {} });
    expect(read.isError).toBeFalsy();
    await expect(client.callTool({ name: 'ledger.write', arguments: {} })).rejects.toThrow();
    expect(probe.runs).toEqual(['read']);
    await client.close();
  });

  it('ctx.auth and CALL_AUTH say who calls; the raw token is not handed to handlers', async () => {
    await start();
    const answer = await callRaw('ledger.read', await token('ledger:read ledger:extra', 'bob'));
    const result = responseOf(answer).result as { structuredContent?: unknown; content: Array<{ text: string }> };
    expect(JSON.parse(result.content[0].text)).toEqual({ subject: 'bob', scopes: ['ledger:read', 'ledger:extra'], viaDi: 'bob' });
    const open = responseOf(await callRaw('ledger.open', await token('ledger:read', 'carol'))).result as {
      content: Array<{ text: string }>;
    };
    expect(JSON.parse(open.content[0].text)).toEqual({ hasToken: false, claims: 'carol' });
  });

  describe("listing: 'allowed'", () => {
    async function list(method: string, scope: string) {
      const { body, headers } = modernRequest(method, {});
      return responseOf(await postRaw(url, body, { ...headers, authorization: `Bearer ${await token(scope)}` })).result as Record<
        string,
        unknown
      >;
    }

    it('each caller sees what its scopes allow; the lists are private to the caller', async () => {
      await start({ listing: 'allowed' });
      const names = (result: Record<string, unknown>) => (result.tools as Array<{ name: string }>).map((t) => t.name).sort();
      const reader = await list('tools/list', 'ledger:read');
      expect(names(reader)).toEqual(['ledger.open', 'ledger.read']);
      expect(reader.cacheScope).toBe('private');
      expect(names(await list('tools/list', 'ledger:read ledger:write ledger:audit'))).toEqual([
        'ledger.both',
        'ledger.open',
        'ledger.read',
        'ledger.write'
      ]);
      expect(names(await list('tools/list', 'unrelated'))).toEqual(['ledger.open']);
      expect((await list('prompts/list', 'ledger:read')).prompts).toEqual([]);
      expect(((await list('prompts/list', 'ledger:audit')).prompts as unknown[]).length).toBe(1);
      expect(((await list('resources/templates/list', 'ledger:read')).resourceTemplates as unknown[]).length).toBe(1);
      expect((await list('resources/templates/list', 'other')).resourceTemplates).toEqual([]);
    });

    it('a hidden tool is refused exactly like a listed one: 403, never run', async () => {
      await start({ listing: 'allowed' });
      const answer = await callRaw('ledger.write', await token('ledger:read'));
      expect(answer.status).toBe(403);
      expect(probe.runs).toEqual([]);
    });

    it("by default ('all') every caller sees every tool", async () => {
      await start();
      const result = await list('tools/list', 'unrelated');
      expect((result.tools as unknown[]).length).toBe(4);
    });
  });

  it('a 2025-era session serves only the caller who opened it', async () => {
    await start();
    const alice = await token('ledger:read', 'alice');
    const init = await postRaw(
      url,
      {
        jsonrpc: '2.0',
        id: freshId(),
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } }
      },
      { authorization: `Bearer ${alice}` }
    );
    const sessionId = init.headers.get('mcp-session-id')!;
    expect(sessionId).toBeTruthy();
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    await postRaw(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, authorization: `Bearer ${alice}` });
    const call = { jsonrpc: '2.0', id: freshId(), method: 'tools/call', params: { name: 'ledger.read', arguments: {} } };
    const stolen = await postRaw(url, call, { ...headers, authorization: `Bearer ${await token('ledger:read', 'mallory')}` });
    expect(stolen.status).toBe(404);
    expect(probe.runs).toEqual([]);
    const own = await postRaw(url, { ...call, id: freshId() }, { ...headers, authorization: `Bearer ${alice}` });
    expect(own.status).toBe(200);
    expect(probe.runs).toEqual(['read']);
  });
});

describe('the scope check in the chain (test harness, gates of your own)', () => {
  let app: FusionApp;
  let probe: Probe;
  beforeEach(() => {
    probe = new Probe();
    app = FusionApp.create({
      tools: [LedgerTools],
      providers: [
        { provide: Probe, useValue: probe },
        { provide: WhoIsCalling, useClass: WhoIsCalling, singleton: false }
      ]
    });
  });
  afterEach(async () => {
    await app.close();
  });
  const authInfo = (scopes: string[], subject = 'dana') => ({
    token: 'opaque',
    clientId: 'c',
    scopes,
    expiresAt: 2_000_000_000,
    extra: { subject }
  });

  it('is the first stage of a member that declares scopes, and absent elsewhere', () => {
    expect(app.describeChain('ledger.write').slice(0, 2)).toEqual(['error-boundary', 'scope-check']);
    expect(app.describeChain('ledger.open')).not.toContain('scope-check');
    expect(app.describeChain('ledger.summary', 'prompt').slice(0, 2)).toEqual(['error-boundary', 'scope-check']);
  });

  it('refuses a token without the scope as an isError result, before anything runs', async () => {
    const result = await app.callTool('ledger.write', {}, { authInfo: authInfo(['ledger:read']) });
    expect(result).toEqual({
      isError: true,
      content: [
        { type: 'text', text: "Tool ledger.write needs the scope ledger:write, which the caller's token does not grant; nothing was run." }
      ]
    });
    expect(probe.runs).toEqual([]);
    const allowed = await app.callTool('ledger.read', {}, { authInfo: authInfo(['ledger:read']) });
    expect(JSON.parse((allowed.content as Array<{ text: string }>)[0].text)).toMatchObject({ subject: 'dana', viaDi: 'dana' });
  });

  it('a call without a token (stdio, an unauthenticated harness call) is not checked', async () => {
    const result = await app.callTool('ledger.write', {});
    expect(result.isError).toBeFalsy();
    expect(probe.runs).toEqual(['write']);
  });

  it('a gate of your own (createHttpHandler().fetch with authInfo) meets the same check', async () => {
    const handler = app.createHttpHandler();
    const { body, headers } = modernRequest('tools/call', { name: 'ledger.write', arguments: {} });
    const res = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        body,
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
      }),
      { authInfo: authInfo(['ledger:read']) }
    );
    const answer = (await res.json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0].text).toMatch(/needs the scope ledger:write/);
    expect(probe.runs).toEqual([]);
  });

  it('serveNode on a node:http server of your own takes req.auth as the authInfo, and meets the same check', async () => {
    const handler = app.createHttpHandler();
    let scopes = ['ledger:read'];
    const server = createServer((req, res) => {
      (req as { auth?: AuthInfo }).auth = authInfo(scopes); // what an auth middleware of your own sets
      void handler.serveNode(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
      const { body, headers } = modernRequest('tools/call', { name: 'ledger.write', arguments: {} });
      const refused = responseOf(await postRaw(url, body, headers)).result as { isError: boolean; content: Array<{ text: string }> };
      expect(refused.isError).toBe(true);
      expect(refused.content[0].text).toMatch(/needs the scope ledger:write/);
      expect(probe.runs).toEqual([]);
      scopes = ['ledger:write'];
      expect((responseOf(await postRaw(url, body, headers)).result as { isError?: boolean }).isError).toBeFalsy();
      expect(probe.runs).toEqual(['write']);
    } finally {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('requestState is bound to the token subject', () => {
  it('a state minted for one user is refused for another (two real tokens)', async () => {
    const ledger = new Ledger();
    const app = FusionApp.create({
      tools: [InteractiveTools],
      providers: [{ provide: Ledger, useValue: ledger }],
      stateKey: 'k'.repeat(32),
      auth: authOptions()
    });
    const { url } = (await app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL };
    try {
      const alice = await token('', 'alice');
      const bob = await token('', 'bob');
      const call = async (bearer: string, params: Record<string, unknown>) => {
        const { body, headers } = modernRequest('tools/call', { name: 'refund', arguments: { amount: 5 }, ...params });
        return responseOf(await postRaw(url, body, { ...headers, authorization: `Bearer ${bearer}` }));
      };
      const first = await call(alice, {});
      const requestState = (first.result as { requestState: string }).requestState;
      expect(typeof requestState).toBe('string');
      const confirm = { inputResponses: { input: { action: 'accept', content: { confirm: true } } }, requestState };
      const stolen = await call(bob, confirm);
      expect(stolen.error?.code).toBe(-32602);
      expect(stolen.error?.message).toMatch(/issued to another caller/);
      expect(ledger.refunds).toEqual([]);
      const own = await call(alice, confirm);
      expect((own.result as { content: Array<{ text: string }> }).content[0].text).toBe('Refunded $5');
      expect(ledger.refunds).toEqual([5]);
    } finally {
      await app.close();
    }
  });
});

describe('startup checks', () => {
  it('a scope that is not an OAuth scope token is a ConfigurationError naming the member', () => {
    @ToolProvider()
    class BadScopes {
      @Action('bad', { description: 'x', scopes: ['has space'] })
      bad() {
        return 1;
      }
    }
    expect(() => FusionApp.create({ tools: [BadScopes] })).toThrow(/BadScopes\.bad: "has space" is not an OAuth scope/);
  });

  it('auth without a verifier, with a bad resource or without authorization servers is refused at create', () => {
    const base = authOptions();
    expect(() => FusionApp.create({ tools: [], auth: { ...base, verifier: undefined as never } })).toThrow(ConfigurationError);
    expect(() => FusionApp.create({ tools: [], auth: { ...base, resource: 'not a url' } })).toThrow(/auth\.resource/);
    expect(() => FusionApp.create({ tools: [], auth: { ...base, authorizationServers: [] } })).toThrow(/authorizationServers/);
    expect(() => FusionApp.create({ tools: [], auth: { ...base, authorizationServers: ['http://auth.example.test'] } })).toThrow(
      /authorizationServers/
    );
  });

  it('jwtVerifier refuses none, shared secrets, private keys in the JWKS and plain-http JWKS URLs off loopback', async () => {
    const jwks = jwksOf(key);
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, algorithms: ['none'] })).toThrow(/never "none"/);
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, algorithms: ['HS256'] })).toThrow(/shared secret/);
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [{ ...key.publicJwk, d: 'secret' }] } })).toThrow(
      /private/
    );
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: 'http://keys.example.test/jwks.json' })).toThrow(/https/);
    expect(() => jwtVerifier({ issuer: '', audience: AUDIENCE, jwks })).toThrow(/issuer is required/);
  });
});
