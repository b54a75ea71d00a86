import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { FusionApp } from '@mcpfusion/core';
import { connectTestClient } from '@mcpfusion/core/testing';
import type SqliteDatabase from 'better-sqlite3';
import { createBillingApp } from './app';
import { createFrontDesk } from './front-desk';
import { modernRequest } from '../test/helpers/raw-http';
import { DESKS_EXTENSION, DESKS_NOTIFICATION } from './front/desk-directory.extension';
import { sseMessages, type SseMessage } from './listen-stream-helpers';
import { inspect, invoiceRow, recordQuestions, TEST_STATE_KEY, tempDb, textOf, type TempDb } from './test-helpers';

/**
 * The front desk (front-desk.ts) as a user composes it: the desk of this process mounted under
 * `desk`, and a branch desk behind the gateway under `branch`, here a second desk served over
 * real HTTP on 127.0.0.1 (a 2025-era upstream to the gateway: its questions are live
 * elicitations, and each 2025-era front session gets an upstream session of its own). SDK v2
 * clients of both eras use the front through its HTTP handler; each desk's SQLite file says
 * what really happened where.
 */

const ERAS = ['modern', 'legacy-http'] as const;
const ANY: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
const ACCEPT = () => ({ action: 'accept' as const, content: { confirm: true } });

describe('the front desk: a desk mounted under desk, a branch desk proxied under branch', () => {
  let deskDb: TempDb;
  let branchDb: TempDb;
  let branchApp: FusionApp;
  let front: FusionApp;
  let desk: SqliteDatabase.Database;
  let branch: SqliteDatabase.Database;
  /** Paid invoices not refunded yet, per desk (each refund test takes one). */
  let deskPaid: number[];
  let branchPaid: number[];

  beforeAll(async () => {
    deskDb = tempDb();
    branchDb = tempDb();
    branchApp = createBillingApp({ dbPath: branchDb.path, stateKey: TEST_STATE_KEY });
    const { url } = await branchApp.listen({ transport: 'http', host: '127.0.0.1', port: 0, handleSignals: false });
    // One upstream session at a time: each new 2025-era front session then ends the idle one before it (least recently used first).
    front = await createFrontDesk({ dbPath: deskDb.path, branch: url!, stateKey: TEST_STATE_KEY, maxBranchSessions: 1 });
    desk = inspect(deskDb.path);
    branch = inspect(branchDb.path);
    const paid = (db: SqliteDatabase.Database) =>
      db.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id").pluck().all() as number[];
    deskPaid = paid(desk);
    branchPaid = paid(branch);
  });
  afterAll(async () => {
    await front?.close();
    await branchApp?.close();
    desk?.close();
    branch?.close();
    deskDb?.remove();
    branchDb?.remove();
  });

  it.each([
    ['desk', () => deskPaid],
    ['branch', () => branchPaid]
  ] as const)('a 2025-era subscriber of %s+billing://invoices/<id> hears of its refund', async (namespace, paidOf) => {
    const id = paidOf().shift()!;
    const { client, close } = await connectTestClient(front, { era: 'legacy-memory', onInput: ACCEPT });
    try {
      const uri = `${namespace}+billing://invoices/${id}`;
      const updated = new Promise<unknown>((resolve) =>
        client.setNotificationHandler('notifications/resources/updated', (notification) => resolve(notification.params))
      );
      // Read first, as a client does before it watches: the gateway subscribes upstream on a resource's first read.
      expect((await client.readResource({ uri })).contents[0]).toMatchObject({ uri });
      await client.subscribeResource({ uri });
      const result = await client.callTool({ name: `${namespace}.billing.refund`, arguments: { id } });
      expect(result.isError).toBeFalsy();
      expect(await updated).toEqual({ uri });
    } finally {
      await close();
    }
  });

  it('serves 2025-era front sessions in turn beyond maxBranchSessions: each gets an upstream session again when it needs one', async () => {
    const a = await connectTestClient(front, { era: 'legacy-http' });
    const b = await connectTestClient(front, { era: 'legacy-http' });
    try {
      for (const { client } of [a, b, a, b]) {
        const result = await client.callTool({ name: 'branch.billing.invoice', arguments: { id: 1 } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id: 1 });
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('streams the directory to a listen of its extension: a branch call in flight, its question waiting, then done', async () => {
    const handler = front.createHttpHandler();
    const listen = modernRequest('subscriptions/listen', { notifications: { [DESKS_EXTENSION]: true } });
    const response = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...listen.headers },
        body: listen.body
      })
    );
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const stream = sseMessages(response.body!);
    const listenId = (JSON.parse(listen.body) as { id: number }).id;
    const branchOf = (message: SseMessage) =>
      (message.params.desks as Array<Record<string, unknown>>).find((d) => d.namespace === 'branch');

    expect(await stream.next()).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { [DESKS_EXTENSION]: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': listenId } }
    });
    expect(branchOf(await stream.next())).toMatchObject({ inFlight: 0, waitingQuestions: 0 });

    // A 2025-era client's branch refund, its question held until the test answers it.
    const id = branchPaid.shift()!;
    let asked!: () => void;
    const questionAsked = new Promise<void>((resolve) => (asked = resolve));
    let answer!: (value: ReturnType<typeof ACCEPT>) => void;
    const answered = new Promise<ReturnType<typeof ACCEPT>>((resolve) => (answer = resolve));
    const { client, close } = await connectTestClient(front, { era: 'legacy-http', onInput: () => (asked(), answered) });
    const directory = await connectTestClient(front);
    try {
      const refund = client.callTool({ name: 'branch.billing.refund', arguments: { id } });
      // Should an expectation below fail, the close in `finally` rejects the call: not an unhandled rejection then.
      refund.catch(() => undefined);
      await questionAsked;
      // The call's chain started: its desk's count went up, on the listen's stream.
      const started = await stream.until((m) => m.method === DESKS_NOTIFICATION && branchOf(m)?.inFlight === 1);
      expect(started.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': listenId });
      // The question waits upstream for this client's answer (its chain returned the question round, which the
      // framework asks over the 2025-era session before it calls again with the answer): the directory says so.
      expect(await directory.client.request({ method: 'desks/list', params: {} }, ANY)).toMatchObject({
        desks: [{ namespace: 'desk' }, { namespace: 'branch', waitingQuestions: 1 }]
      });
      answer(ACCEPT());
      expect((await refund).isError).toBeFalsy();
      // Answered and done: nothing in flight, nothing waiting.
      await stream.until((m) => branchOf(m)?.inFlight === 0 && branchOf(m)?.waitingQuestions === 0);
      expect(invoiceRow(branch, id).status).toBe('refunded');
    } finally {
      await stream.close();
      await Promise.all([close(), directory.close()]);
      await handler.close();
    }
  });

  describe.each(ERAS)('an SDK v2 client of the %s era', (era) => {
    it('lists both desks’ tools under their namespaces, annotations and view links kept', async () => {
      const { client, close } = await connectTestClient(front, { era });
      try {
        const { tools } = await client.listTools();
        const names = tools.map((tool) => tool.name);
        expect(names).toEqual(
          expect.arrayContaining([
            'desk.billing.refund',
            'desk.billing.list',
            'desk.report.generate',
            'branch.billing.refund',
            'branch.billing.list'
          ])
        );
        // Nothing under the desks' own names: everything is namespaced.
        expect(names.filter((name) => !name.startsWith('desk.') && !name.startsWith('branch.'))).toEqual([]);
        for (const name of ['desk.billing.refund', 'branch.billing.refund'])
          expect(tools.find((tool) => tool.name === name)!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
        // The mounted tool's view link is rewritten with its view (ui://billing/invoice-desk → ui://desk/billing/invoice-desk).
        expect(tools.find((tool) => tool.name === 'desk.billing.list')!._meta).toMatchObject({
          ui: { resourceUri: 'ui://desk/billing/invoice-desk' }
        });
      } finally {
        await close();
      }
    });

    it('refunds an invoice of the mounted desk once, by answering its question', async () => {
      const id = deskPaid.shift()!;
      const questions = recordQuestions(ACCEPT);
      const { client, close } = await connectTestClient(front, { era, onInput: questions.onInput });
      const branchBefore = invoiceRow(branch, id).status;
      try {
        const result = await client.callTool({ name: 'desk.billing.refund', arguments: { id } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id, status: 'refunded' });
        expect(questions.asked).toHaveLength(1);
        expect(questions.asked[0].message).toMatch(/^Refund €[\d,.]+ to .+\?$/);
        expect(invoiceRow(desk, id).status).toBe('refunded');
        // This desk's books, not the branch's.
        expect(invoiceRow(branch, id).status).toBe(branchBefore);

        const again = await client.callTool({ name: 'desk.billing.refund', arguments: { id } });
        expect(again.isError).toBe(true);
        expect(textOf(again)).toMatch(/already refunded/i);
        expect(questions.asked).toHaveLength(1);
      } finally {
        await close();
      }
    });

    it('reads a mounted invoice under the URI rule (desk+billing://invoices/<id>), and not under its own URI', async () => {
      const { client, close } = await connectTestClient(front, { era });
      try {
        const uri = 'desk+billing://invoices/1';
        const read = await client.readResource({ uri });
        expect(read.contents).toHaveLength(1);
        expect(read.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
        expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: 1, status: invoiceRow(desk, 1).status });
        const { resourceTemplates } = await client.listResourceTemplates();
        expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('desk+billing://invoices/{id}');
        await expect(client.readResource({ uri: 'billing://invoices/1' })).rejects.toThrow();
      } finally {
        await close();
      }
    });

    it('lists the mounted desk’s views at ui://desk/…', async () => {
      const { client, close } = await connectTestClient(front, { era });
      try {
        const views = (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
        expect(views.map((r) => [r.uri, r.mimeType])).toEqual([
          ['ui://desk/billing/invoice-desk', 'text/html;profile=mcp-app'],
          ['ui://desk/reports/rebuild-panel', 'text/html;profile=mcp-app']
        ]);
      } finally {
        await close();
      }
    });

    it('refunds an invoice of the branch through the gateway, its question answered in this era', async () => {
      const id = branchPaid.shift()!;
      const questions = recordQuestions(ACCEPT);
      const { client, close } = await connectTestClient(front, { era, onInput: questions.onInput });
      const deskBefore = invoiceRow(desk, id).status;
      try {
        const invoice = await client.callTool({ name: 'branch.billing.invoice', arguments: { id } });
        expect(invoice.structuredContent).toMatchObject({ id, status: 'paid' });

        const result = await client.callTool({ name: 'branch.billing.refund', arguments: { id } });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id, status: 'refunded' });
        expect(questions.asked).toHaveLength(1);
        expect(questions.asked[0].message).toMatch(/^Refund €[\d,.]+ to .+\?$/);
        expect(invoiceRow(branch, id).status).toBe('refunded');
        // The branch's books, not this desk's.
        expect(invoiceRow(desk, id).status).toBe(deskBefore);
      } finally {
        await close();
      }
    });

    it('says what is behind it through its extension: desks/list, and the namespaces in its settings', async () => {
      const { client, close } = await connectTestClient(front, { era });
      try {
        const advertised = (client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[DESKS_EXTENSION];
        expect(advertised).toEqual({ namespaces: ['desk', 'branch'] });
        const listed = await client.request({ method: 'desks/list', params: {} }, ANY);
        expect(listed).toMatchObject({
          desks: [
            { namespace: 'desk', kind: 'mounted', views: ['ui://desk/billing/invoice-desk', 'ui://desk/reports/rebuild-panel'] },
            { namespace: 'branch', kind: 'proxied', waitingQuestions: 0 }
          ]
        });
      } finally {
        await close();
      }
    });
  });
});
