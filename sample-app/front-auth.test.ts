import type { FusionApp } from '@mcpfusion/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIENCE, ISSUER, jwksOf, mintToken, signingKey, type SigningKey } from '../test/helpers/auth-fixtures';
import { modernRequest, postRaw, responseOf } from '../test/helpers/raw-http';
import { createBillingApp } from './app';
import { deskAuthFromEnv } from './auth-config';
import { createFrontDesk } from './front-desk';
import { TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/**
 * The front desk as a protected resource (MCP_AUTH_* as the desk reads them), over real HTTP on
 * 127.0.0.1: a mounted tool keeps its scopes, and a branch tool behind the gateway needs the
 * scopes of the desk's tool of the same name (the branch itself runs open, on loopback).
 */
describe('the front desk with MCP_AUTH_* set', () => {
  let key: SigningKey;
  let dir: string;
  let deskDb: TempDb;
  let branchDb: TempDb;
  let branchApp: FusionApp;
  let front: FusionApp;
  let url: URL;

  beforeAll(async () => {
    key = await signingKey('front-key');
    dir = mkdtempSync(join(tmpdir(), 'front-auth-'));
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify(jwksOf(key)));
    const auth = deskAuthFromEnv({ MCP_AUTH_ISSUER: ISSUER, MCP_AUTH_AUDIENCE: AUDIENCE, MCP_AUTH_JWKS_FILE: join(dir, 'jwks.json') });
    deskDb = tempDb();
    branchDb = tempDb();
    branchApp = createBillingApp({ dbPath: branchDb.path, stateKey: TEST_STATE_KEY });
    const branch = await branchApp.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false });
    front = await createFrontDesk({ dbPath: deskDb.path, branch: branch.url!, stateKey: TEST_STATE_KEY, auth });
    ({ url } = (await front.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as { url: URL });
  });
  afterAll(async () => {
    await front?.close();
    await branchApp?.close();
    deskDb?.remove();
    branchDb?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const tokenFor = (scope: string) => mintToken(key, { sub: 'clerk', scope });
  async function call(scope: string, name: string, args: Record<string, unknown>) {
    const { body, headers } = modernRequest('tools/call', { name, arguments: args });
    return postRaw(url, body, { ...headers, authorization: `Bearer ${await tokenFor(scope)}` });
  }

  it.each([
    ['desk.billing.refund', 'billing:write'],
    ['branch.billing.refund', 'billing:write'],
    ['branch.reports.rebuild', 'billing:write'],
    ['branch.report.generate', 'reports:read']
  ])('billing:read alone cannot run %s: 403 asking for %s', async (name, scope) => {
    const answer = await call('billing:read', name, name.endsWith('report.generate') ? { year: 2025, quarter: 1 } : { id: 1 });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(answer.headers.get('www-authenticate')).toContain(`scope="${scope}"`);
  });

  it('billing:read reads an invoice on both desks; reports:read alone reads neither', async () => {
    for (const name of ['desk.billing.invoice', 'branch.billing.invoice']) {
      const read = responseOf(await call('billing:read', name, { id: 1 }));
      expect(read.result).toMatchObject({ structuredContent: { id: 1 } });
      expect((await call('reports:read', name, { id: 1 })).status).toBe(403);
    }
  });
});
