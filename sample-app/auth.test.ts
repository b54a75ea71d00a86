import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey, type SigningKey } from '../test/helpers/auth-fixtures';
import { modernRequest, postRaw, responseOf, streamText } from '../test/helpers/raw-http';
import { deskAuthFromEnv } from './auth-config';
import { TEST_STATE_KEY, countWithStatus, type DatabaseEngine, eachDatabase, tempDb, useBillingApp, usePostgres } from './test-helpers';

/** How main.js names the database it runs on when it starts listening. */
const ENGINE_NAME: Record<DatabaseEngine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The billing desk as a protected resource: the scopes of scopes.ts, enforced over real HTTP, on SQLite and on PostgreSQL. */
eachDatabase('the billing desk with MCP_AUTH_* set', (database) => {
  let key: SigningKey;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let url: URL;

  beforeAll(async () => {
    key = await signingKey('desk-key');
    dir = mkdtempSync(join(tmpdir(), 'desk-auth-'));
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify(jwksOf(key)));
    env = { MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: join(dir, 'jwks.json') };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // The auth options are read as each test's app opens, after the beforeAll above made the key set.
  const desk = useBillingApp({
    database,
    get auth() {
      return deskAuthFromEnv(env);
    }
  });
  beforeEach(async () => {
    ({ url } = (await desk.app.listen({ transport: 'http', port: 0, handleSignals: false })) as { url: URL });
  });

  const tokenFor = (scope: string) => mintToken(key, { sub: 'clerk', scope });
  async function call(bearer: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const { body, headers } = modernRequest('tools/call', { name, arguments: args, ...extra });
    return postRaw(url, body, { ...headers, authorization: `Bearer ${bearer}` });
  }

  /** Opens a 2026-07-28 listen with this token; resolves with its acknowledged filter and the open stream. */
  async function listen(bearer: string, notifications: Record<string, unknown>) {
    const { body, headers } = modernRequest('subscriptions/listen', { notifications });
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
        authorization: `Bearer ${bearer}`
      },
      body
    });
    const stream = streamText(res);
    const text = await stream.until('notifications/subscriptions/acknowledged');
    const ack = JSON.parse(
      text
        .split('\n')
        .find((line) => line.includes('acknowledged'))!
        .replace(/^data: /, '')
    ) as {
      params: { notifications: Record<string, unknown> };
    };
    return { honoured: ack.params.notifications, stream };
  }

  it('subscriptions/listen is checked like the reads it subscribes to: a URI the token may not read is left out of the acknowledgement, and nothing of it is sent', async () => {
    const uri = 'billing://invoices/35';
    const reportsOnly = await listen(await tokenFor('reports:read'), { resourceSubscriptions: [uri], toolsListChanged: true });
    expect(reportsOnly.honoured).not.toHaveProperty('resourceSubscriptions');
    expect(reportsOnly.honoured.toolsListChanged).toBe(true);
    const reader = await listen(await tokenFor('billing:read'), { resourceSubscriptions: [uri] });
    expect(reader.honoured.resourceSubscriptions).toEqual([uri]);
    // A refund of invoice 35 by a clerk who may write: only the reader's stream hears of it.
    const clerk = await tokenFor('billing:read billing:write');
    const asked = responseOf(await call(clerk, 'billing.refund', { id: 35 })).result as { requestState: string; inputRequests: object };
    const inputResponses = Object.fromEntries(
      Object.keys(asked.inputRequests).map((key) => [key, { action: 'accept', content: { confirm: true } }])
    );
    await call(clerk, 'billing.refund', { id: 35 }, { requestState: asked.requestState, inputResponses });
    expect(await reader.stream.until('notifications/resources/updated')).toContain(uri);
    await reader.stream.cancel();
    // The reports-only stream subscribed to nothing it may not read: the SDK sends a resource's updates only to streams that acknowledged it.
    await reportsOnly.stream.cancel();
  });

  it('needs a token at all', async () => {
    const { body, headers } = modernRequest('tools/list', {});
    const answer = await postRaw(url, body, headers);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it.each([
    ['billing.refund', { id: 1 }, 'billing:write'],
    ['billing.adjust', { id: 1 }, 'billing:write'],
    ['reports.rebuild', {}, 'billing:write'],
    ['account.connect', { provider: 'github' }, 'accounts:connect'],
    ['report.generate', { quarter: '2025-Q1' }, 'reports:read']
  ])('billing:read alone cannot run %s (%j): 403 asking for %s', async (name, args, scope) => {
    const answer = await call(await tokenFor('billing:read'), name, args);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain(`error="insufficient_scope"`);
    expect(answer.headers.get('www-authenticate')).toContain(`scope="${scope}"`);
  });

  it('billing:read reads invoices, the invoice resource and the prompt', async () => {
    const reader = await tokenFor('billing:read');
    const invoice = responseOf(await call(reader, 'billing.invoice', { id: 1 }));
    expect((invoice.result as { isError?: boolean }).isError).toBeFalsy();
    const read = modernRequest('resources/read', { uri: 'billing://invoices/1' });
    expect((await postRaw(url, read.body, { ...read.headers, authorization: `Bearer ${reader}` })).status).toBe(200);
    const prompt = modernRequest('prompts/get', { name: 'billing.collections_letter', arguments: { invoiceId: '1' } });
    expect((await postRaw(url, prompt.body, { ...prompt.headers, authorization: `Bearer ${reader}` })).status).toBe(200);
    const noRead = await call(await tokenFor('reports:read'), 'billing.invoice', { id: 1 });
    expect(noRead.status).toBe(403);
  });

  it('billing:write refunds after the user confirms; the refused attempt before it wrote nothing', async () => {
    const refunded = () => countWithStatus(desk.sql, 'refunded');
    const before = await refunded();
    expect((await call(await tokenFor('billing:read'), 'billing.refund', { id: 2 })).status).toBe(403);
    expect(await refunded()).toBe(before);
    const writer = await tokenFor('billing:read billing:write');
    const first = responseOf(await call(writer, 'billing.refund', { id: 2 })).result as {
      resultType: string;
      requestState: string;
      inputRequests: object;
    };
    expect(first.resultType).toBe('input_required');
    const [question] = Object.keys(first.inputRequests);
    const done = responseOf(
      await call(
        writer,
        'billing.refund',
        { id: 2 },
        { requestState: first.requestState, inputResponses: { [question]: { action: 'accept', content: { confirm: true } } } }
      )
    ).result as { isError?: boolean };
    expect(done.isError).toBeFalsy();
    expect(await refunded()).toBe(before + 1);
  });

  it('the protected resource metadata lists the desk scopes', async () => {
    const res = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await res.json()).toEqual({
      resource: AUDIENCE,
      authorization_servers: [ISSUER],
      scopes_supported: ['accounts:connect', 'billing:read', 'billing:write', 'reports:read'],
      bearer_methods_supported: ['header'],
      resource_name: 'Billing desk'
    });
  });
});

describe('deskAuthFromEnv (the MCP_AUTH_* variables, read by authFromEnv)', () => {
  // Parses environment variables only: no desk, no database, so it runs once.
  it('none of the variables: no auth (the desk runs open)', () => {
    expect(deskAuthFromEnv({})).toBeUndefined();
  });

  it('some but not all: an error naming what is missing (a half-configured desk must not start open)', () => {
    expect(() => deskAuthFromEnv({ MCP_AUTH_ISSUER: ISSUER })).toThrow(
      /set MCP_AUTH_AUDIENCE, MCP_AUTH_JWKS_FILE or MCP_AUTH_JWKS_URL as well/
    );
    expect(() =>
      deskAuthFromEnv({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: '/nonexistent/jwks.json' })
    ).toThrow(/could not be read/);
  });
});

/** The README's try-out: `eval "$(node scripts/dev-auth.mjs env)"`, then the desk needs the tokens it printed. */
eachDatabase('the README try-out', (database) => {
  const postgres = database === 'postgres' ? usePostgres() : undefined;
  test('scripts/dev-auth.mjs env + main.js: 401 without a token, the read token reads, it cannot refund', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-auth-'));
    const db = tempDb();
    // On PostgreSQL, main.js is given DATABASE_URL too (it wins over BILLING_DB).
    const created = await postgres?.createDatabase();
    const root = join(__dirname, '..');
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts/dev-auth.mjs'), 'env'], {
      env: { ...process.env, DEV_AUTH_DIR: dir }
    });
    const vars = Object.fromEntries(
      [...stdout.matchAll(/^export (\w+)='([^']*)'$/gm)].map((match) => [match[1], match[2]] as const)
    ) as Record<string, string>;
    expect(Object.keys(vars).sort()).toEqual(['ADMIN_TOKEN', 'MCP_AUTH_AUDIENCE', 'MCP_AUTH_ISSUER', 'MCP_AUTH_JWKS_FILE', 'READ_TOKEN']);
    const child = spawn(process.execPath, [join(root, 'build/sample-app/main.js')], {
      env: {
        ...process.env,
        ...vars,
        PORT: '0',
        BILLING_DB: db.path,
        FUSION_STATE_KEY: TEST_STATE_KEY,
        ...(created ? { DATABASE_URL: created.url } : {})
      },
      stdio: ['ignore', 'ignore', 'pipe']
    });
    try {
      const endpoint = await new Promise<URL>((resolve, reject) => {
        let seen = '';
        child.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const match = new RegExp(
            `billing-desk listening on (\\S+) \\(pid \\d+\\), bearer tokens required, ${ENGINE_NAME[database]}`
          ).exec(seen);
          if (match) resolve(new URL(match[1]));
        });
        child.once('exit', (code) => reject(new Error(`main.js exited (${String(code)}) before listening:\n${seen}`)));
      });
      const list = modernRequest('tools/list', {});
      expect((await postRaw(endpoint, list.body, list.headers)).status).toBe(401);
      const listed = responseOf(await postRaw(endpoint, list.body, { ...list.headers, authorization: `Bearer ${vars.READ_TOKEN}` }));
      expect((listed.result as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
      const refund = modernRequest('tools/call', { name: 'billing.refund', arguments: { id: 1 } });
      expect((await postRaw(endpoint, refund.body, { ...refund.headers, authorization: `Bearer ${vars.READ_TOKEN}` })).status).toBe(403);
      const admin = await postRaw(endpoint, refund.body, { ...refund.headers, authorization: `Bearer ${vars.ADMIN_TOKEN}` });
      expect(admin.status).toBe(200);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      child.stderr.destroy();
      db.remove();
      rmSync(dir, { recursive: true, force: true });
      await created?.drop();
    }
  }, 30_000);
});
