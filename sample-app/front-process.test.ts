import { Client, StreamableHTTPClientTransport, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { FusionApp } from '@mcpfusion/core';
import type SqliteDatabase from 'better-sqlite3';
import { join } from 'node:path';
import { ChildServers } from '../test/helpers/child-servers';
import { createBillingApp } from './app';
import { inspect, invoiceRow, TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/**
 * The front desk as a user runs it (and as an MCP client configuration does, over stdio) (`npm run compile`, then `node build/sample-app/front-main.js`):
 * over real HTTP on 127.0.0.1, with no FRONT_BRANCH, so it spawns its branch itself, a second
 * desk over stdio (`main.js --stdio`, a 2025-era upstream whose questions are live
 * elicitations). SDK v2 clients of both eras refund a branch invoice through it by answering the
 * question; SIGTERM stops it cleanly.
 */

const FRONT = join(__dirname, '..', 'build', 'sample-app', 'front-main.js');
const ANY: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };

describe('node build/sample-app/front-main.js (its branch spawned over stdio)', () => {
  const servers = new ChildServers();
  let frontDb: TempDb;
  let branchDb: TempDb;
  let branch: SqliteDatabase.Database;
  let url: URL;
  let paid: number[];

  beforeAll(async () => {
    frontDb = tempDb();
    branchDb = tempDb();
    // Seeds the branch's file first, so the test knows its paid invoices before the front starts.
    await createBillingApp({ dbPath: branchDb.path, stateKey: TEST_STATE_KEY }).close();
    branch = inspect(branchDb.path);
    paid = branch.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().all() as number[];
    url = await servers.start(
      [FRONT],
      { PORT: '0', FRONT_DB: frontDb.path, BRANCH_DB: branchDb.path, FRONT_BRANCH: '', FUSION_STATE_KEY: TEST_STATE_KEY },
      /front-desk listening on (\S+)/
    );
  });
  afterAll(async () => {
    await servers.stopAll();
    branch?.close();
    frontDb?.remove();
    branchDb?.remove();
  });

  it.each(['2026', '2025'] as const)(
    'an SDK v2 client of the %s era refunds a branch invoice through it, answering the question',
    async (era) => {
      const asked: string[] = [];
      const client = new Client(
        { name: `front-process-${era}`, version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' } }
      );
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.params.message);
        return Promise.resolve({ action: 'accept' as const, content: { confirm: true } });
      });
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(['desk.billing.refund', 'branch.billing.refund']));
        const id = paid.shift()!;
        const result = await client.callTool({ name: 'branch.billing.refund', arguments: { id } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id, status: 'refunded' });
        expect(asked).toEqual([expect.stringMatching(/^Refund €[\d,.]+ to .+\?$/)]);
        expect(invoiceRow(branch, id).status).toBe('refunded');
        expect(await client.request({ method: 'desks/list', params: {} }, ANY)).toMatchObject({
          desks: [
            { namespace: 'desk', kind: 'mounted' },
            { namespace: 'branch', kind: 'proxied', waitingQuestions: 0 }
          ]
        });
      } finally {
        await client.close();
      }
    }
  );

  it('stops on SIGTERM with exit code 0', async () => {
    const [front] = servers.all;
    await servers.stopAll();
    expect(front.exitCode).toBe(0);
  });
});

describe('node build/sample-app/front-main.js --stdio, FRONT_BRANCH a desk over HTTP on 127.0.0.1', () => {
  let branchDb: TempDb;
  let frontDb: TempDb;
  let branchApp: FusionApp;
  let branchUrl: URL;
  let branch: SqliteDatabase.Database;

  beforeAll(async () => {
    branchDb = tempDb();
    frontDb = tempDb();
    branchApp = createBillingApp({ dbPath: branchDb.path, stateKey: TEST_STATE_KEY });
    ({ url: branchUrl } = (await branchApp.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false })) as {
      url: URL;
    });
    branch = inspect(branchDb.path);
  });
  afterAll(async () => {
    await branchApp?.close();
    branch?.close();
    branchDb?.remove();
    frontDb?.remove();
  });

  it('a 2025-era stdio client refunds a branch invoice through it (the branch asks over the gateway’s HTTP session)', async () => {
    const asked: string[] = [];
    const client = new Client({ name: 'front-stdio', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return Promise.resolve({ action: 'accept' as const, content: { confirm: true } });
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [FRONT, '--stdio'],
      env: {
        ...(process.env as Record<string, string>),
        FRONT_DB: frontDb.path,
        FRONT_BRANCH: branchUrl.href,
        FUSION_STATE_KEY: TEST_STATE_KEY
      },
      stderr: 'pipe'
    });
    await client.connect(transport);
    try {
      const id = branch.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().get() as number;
      const result = await client.callTool({ name: 'branch.billing.refund', arguments: { id } });
      expect(result.isError).toBeFalsy();
      expect(asked).toEqual([expect.stringMatching(/^Refund €[\d,.]+ to .+\?$/)]);
      expect(invoiceRow(branch, id).status).toBe('refunded');
      const invoice = await client.readResource({ uri: `desk+billing://invoices/${id}` });
      expect(JSON.parse((invoice.contents[0] as { text: string }).text)).toMatchObject({ id, status: 'paid' });
    } finally {
      await client.close();
    }
  });
});
