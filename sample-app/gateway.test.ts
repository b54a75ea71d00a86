import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { ChildServers } from '../test/helpers/child-servers';
import { CLI_BIN } from '../test/helpers/cli-bin';
import { createBillingApp } from './app';
import { aggregates, inspect, invoiceRow, TEST_STATE_KEY, tempDb, textOf, writeLockIsFree, type TempDb } from './test-helpers';

/**
 * The gateway's done-when, end to end: the compiled `mcpfusion serve` (package.json `bin`, from
 * `npm run compile`) spawns the sample app over stdio (a 2025-era upstream: its questions are
 * live `elicitation/create` requests) and serves it under the namespace `desk` over HTTP, and an
 * SDK v2 client of each era uses the desk through it. The database file says what really
 * happened upstream.
 */

const ROOT = join(__dirname, '..');
const BIN = CLI_BIN;
const SAMPLE = join(ROOT, 'build', 'sample-app', 'main.js');

/** What a client saw, in arrival order at its transport: progress notifications and responses. */
type Seen = { kind: 'progress'; progress: number; message?: string } | { kind: 'response'; id: unknown };

describe('mcpfusion serve --stdio <sample app> --namespace desk', () => {
  const servers = new ChildServers();
  let db: TempDb;
  let disk: SqliteDatabase.Database;
  let url: URL;
  let paidIds: number[];

  beforeAll(async () => {
    db = tempDb();
    // Seeds the file first, as the spawned desk would.
    await createBillingApp({ dbPath: db.path, stateKey: TEST_STATE_KEY }).close();
    disk = inspect(db.path);
    paidIds = disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().all() as number[];
    url = await servers.start(
      [BIN, 'serve', '--stdio', `node ${SAMPLE} --stdio`, '--namespace', 'desk', '--port', '0'],
      { BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY },
      /listening on (\S+)/
    );
  });
  afterAll(async () => {
    await servers.stopAll();
    disk?.close();
    db?.remove();
  });

  describe.each(['2026', '2025'] as const)('an SDK v2 client of the %s era', (era) => {
    let client: Client;
    const seen: Seen[] = [];
    /** The questions the client was asked, with the id its handler saw (2026: the `inputRequests` key of a round). */
    const asked: Array<{ message: string; id: unknown }> = [];

    beforeAll(async () => {
      client = new Client(
        { name: `gateway-test-${era}`, version: '1.0.0' },
        {
          capabilities: { elicitation: { form: {} } },
          versionNegotiation: { mode: era === '2026' ? { pin: '2026-07-28' } : 'legacy' }
        }
      );
      client.setRequestHandler('elicitation/create', (request, ctx) => {
        asked.push({ message: request.params.message, id: ctx.mcpReq.id });
        return Promise.resolve({ action: 'accept' as const, content: { confirm: true } });
      });
      const transport: Transport = new StreamableHTTPClientTransport(url);
      await client.connect(transport);
      // Read at the transport: the order the messages came in, before the SDK hands them on.
      const receive = transport.onmessage;
      transport.onmessage = (message: JSONRPCMessage, extra) => {
        if ('method' in message && message.method === 'notifications/progress') {
          const params = message.params as { progress: number; message?: string };
          seen.push({ kind: 'progress', progress: params.progress, ...(params.message ? { message: params.message } : {}) });
        } else if ('id' in message && ('result' in message || 'error' in message)) seen.push({ kind: 'response', id: message.id });
        receive?.(message, extra);
      };
      expect(client.getProtocolEra()).toBe(era === '2026' ? 'modern' : 'legacy');
    });
    afterAll(async () => {
      await client?.close();
    });

    it('lists desk.billing.refund with its annotations kept (a destructive tool stays destructive)', async () => {
      const { tools } = await client.listTools();
      const refund = tools.find((tool) => tool.name === 'desk.billing.refund');
      expect(refund).toBeDefined();
      expect(refund!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['desk.report.generate', 'desk.reports.rebuild']));
    });

    it(`refunds an invoice once, by answering its question (${era === '2026' ? 'an input_required round the gateway made from the live elicitation' : 'a live elicitation'})`, async () => {
      const id = paidIds.shift()!;
      asked.length = 0;
      const result = await client.callTool({ name: 'desk.billing.refund', arguments: { id } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ id, status: 'refunded' });
      expect(asked).toHaveLength(1);
      expect(asked[0].message).toMatch(/^Refund €[\d,.]+ to .+\?$/);
      // 2026: the question came embedded in an input_required result, under the gateway's key; 2025: a live request (a JSON-RPC id).
      if (era === '2026') expect(asked[0].id).toBe('upstream-question');
      else expect(typeof asked[0].id).toBe('number');
      expect(invoiceRow(disk, id).status).toBe('refunded');

      const again = await client.callTool({ name: 'desk.billing.refund', arguments: { id } });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(/already refunded/i);
    });

    it("receives desk.report.generate's progress in order, all of it before the response", async () => {
      seen.length = 0;
      const result = await client.callTool(
        { name: 'desk.report.generate', arguments: { year: 2025, quarter: 1 } },
        { onprogress: () => undefined }
      );
      expect(result.isError).toBeFalsy();
      expect(seen).toEqual([
        { kind: 'progress', progress: 30, message: 'rows loaded' },
        { kind: 'progress', progress: 60, message: 'totals computed' },
        { kind: 'progress', progress: 90, message: 'charts rendered' },
        { kind: 'response', id: expect.anything() }
      ]);
    });

    it('cancels desk.reports.rebuild, and the next rebuild runs at once upstream', async () => {
      const before = aggregates(disk);
      const controller = new AbortController();
      // 1 s a month: left running, the cancelled rebuild would hold the desk's lock far beyond this test's timeout.
      const cancelled = client.callTool(
        { name: 'desk.reports.rebuild', arguments: { throttleMs: 1000 } },
        { signal: controller.signal, onprogress: () => controller.abort() }
      );
      await expect(cancelled).rejects.toThrow();
      expect(aggregates(disk)).toEqual(before);

      const next = await client.callTool({ name: 'desk.reports.rebuild', arguments: {} });
      expect(next.isError).toBeFalsy();
      const { rebuiltAt } = next.structuredContent as { rebuiltAt: string };
      expect(aggregates(disk).every((row) => row.rebuilt_at === rebuiltAt)).toBe(true);
      expect(writeLockIsFree(disk)).toBe(true);
    });
  });
});
