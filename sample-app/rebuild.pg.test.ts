import { InvoiceRepository } from './billing/invoice-repository';
import { SQL_DATABASE, type SqlDatabase } from './db/sql-database';
import { POSTGRES_INSTALL } from '../test/helpers/postgres-server';
import { POSTGRES_INSTALLED, readAggregates, textOf, useBillingApp, type AggregateRow } from './test-helpers';
import { rebuildBesideReadAndRefund } from './scenarios';

/**
 * What only PostgreSQL's side of the desk needs proving beside the suite both engines run
 * (sample-app.test.ts): the rebuild's one transaction on a pooled client (readers keep the old
 * table, an abort rolls back and gives the client back), and the refund's fenced UPDATE through
 * the repository. The SQLite forms of these are in rebuild.test.ts and keyed-refunds.test.ts.
 */
const CONFIRM = { answers: { confirm: true } };
const suite = POSTGRES_INSTALLED ? describe : describe.skip;

suite(`the desk on PostgreSQL${POSTGRES_INSTALLED ? '' : ` (skipped: PostgreSQL is not installed: ${POSTGRES_INSTALL})`}`, () => {
  const desk = useBillingApp({ database: 'postgres' });

  const firstPaid = async (order: 'ASC' | 'DESC' = 'ASC') =>
    (await desk.sql.get<{ id: number }>(`SELECT id FROM invoices WHERE status = 'paid' ORDER BY id ${order} LIMIT 1`))!.id;
  /** Sessions left inside a transaction: a rebuild that did not roll back would leave one. */
  const idleInTransaction = async () =>
    (await desk.sql.get<{ n: number }>("SELECT count(*) AS n FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'"))!.n;

  async function staleAggregates(): Promise<AggregateRow[]> {
    expect((await desk.app.callTool('reports.rebuild', {})).isError).toBeFalsy();
    expect((await desk.app.callTool('billing.refund', { id: await firstPaid() }, CONFIRM)).isError).toBeFalsy();
    return readAggregates(desk.sql);
  }

  test('reports.rebuild fills monthly_aggregates; readers (the app and another connection) see the old table until the COMMIT', async () => {
    await staleAggregates();
    // The test's own transaction holds an uncommitted row for 2025-04: the rebuild writes months 1-3, then waits at
    // the fourth (the same key) until the test has read the table midway and rolled its row back.
    await desk.sql.run("DELETE FROM monthly_aggregates WHERE month = '2025-04'");
    const before = await readAggregates(desk.sql);
    const blocker = await (desk.sql as SqlDatabase).beginWrite();
    await blocker.run("INSERT INTO monthly_aggregates VALUES ('2025-04', 1, 1, 1, 0, 0, 'the test')");
    const app = desk.app.container.resolve(SQL_DATABASE);
    const midway: Array<Promise<AggregateRow[]>> = [];
    const result = await desk.app.callTool(
      'reports.rebuild',
      {},
      {
        onProgress: (_p, message) => {
          if (message !== 'month 3 of 24') return;
          midway.push(readAggregates(app), readAggregates(desk.sql));
          void Promise.all(midway).finally(() => blocker.abandon());
        }
      }
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ months: 24, invoices: 40, rebuiltAt: expect.any(String) });
    expect(await Promise.all(midway)).toEqual([before, before]);
    const after = await readAggregates(desk.sql);
    expect(after).toHaveLength(24);
    expect(after.reduce((n, row) => n + row.invoice_count, 0)).toBe(40);
    expect(await idleInTransaction()).toBe(0);
  });

  test('a rebuild cancelled after its first month rolls back, gives its client back, and the next mutations run', async () => {
    const before = await staleAggregates();
    const controller = new AbortController();
    const result = await desk.app.callTool('reports.rebuild', {}, { signal: controller.signal, onProgress: () => controller.abort() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cancelled/i);
    expect(await readAggregates(desk.sql)).toEqual(before);
    // A refund, then a whole rebuild: the second would wait forever on rows the first still held.
    expect((await desk.app.callTool('billing.refund', { id: await firstPaid('DESC') }, CONFIRM)).isError).toBeFalsy();
    expect((await desk.app.callTool('reports.rebuild', {})).isError).toBeFalsy();
    expect(await idleInTransaction()).toBe(0);
  });

  test('a rebuild cancelled during its throttle wait rolls back too', async () => {
    const before = await staleAggregates();
    const controller = new AbortController();
    const result = await desk.app.callTool(
      'reports.rebuild',
      { throttleMs: 1000 },
      { signal: controller.signal, onProgress: () => void setImmediate(() => controller.abort()) }
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cancelled/i);
    expect(await readAggregates(desk.sql)).toEqual(before);
    expect((await desk.app.callTool('billing.refund', { id: 2 }, CONFIRM)).isError).toBeFalsy();
  });

  test('during a throttled rebuild, reads run at once and mutations wait their turn', async () => {
    await staleAggregates();
    const paid = await firstPaid('DESC');
    const order = await rebuildBesideReadAndRefund(desk.app, paid);
    expect(order).toEqual(['read', 'rebuild', 'refund']);
  });

  test('closing the app during a rebuild rolls it back (the pool ends once its client is back)', async () => {
    const before = await staleAggregates();
    let closing: Promise<void> | undefined;
    const result = await desk.app.callTool(
      'reports.rebuild',
      { throttleMs: 1000 },
      { onProgress: () => void (closing ??= desk.app.close()) }
    );
    await closing;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/shutting down/);
    expect(await readAggregates(desk.sql)).toEqual(before);
    expect(await idleInTransaction()).toBe(0);
  });

  test('a write transaction refuses statements once committed or abandoned (its client may be serving another caller)', async () => {
    const db = desk.sql as SqlDatabase;
    const committed = await db.beginWrite();
    await committed.run('DELETE FROM invoices WHERE id = 40');
    await committed.commit();
    await expect(committed.run('DELETE FROM invoices')).rejects.toThrow('The write transaction has ended');
    const abandoned = await db.beginWrite();
    await abandoned.run('DELETE FROM invoices WHERE id = 39');
    abandoned.abandon();
    abandoned.abandon();
    await expect(abandoned.run('DELETE FROM invoices')).rejects.toThrow('The write transaction has ended');
    await expect(abandoned.commit()).rejects.toThrow('The write transaction has ended');
    expect(await desk.sql.get('SELECT COUNT(*) AS n FROM invoices')).toEqual({ n: 39 });
  });

  test("the refund's fenced UPDATE: a stale holder's token is refused and changes nothing; a later one writes; no token, no fence", async () => {
    const invoices = desk.app.container.resolve(InvoiceRepository);
    const [id, other] = (await desk.sql.all<{ id: number }>("SELECT id FROM invoices WHERE status = 'open' ORDER BY id LIMIT 2")).map(
      (r) => r.id
    );
    // A later holder of the invoice's lock wrote under a Redis-sized token.
    await desk.sql.run('UPDATE invoices SET fence = 1796181555662300 WHERE id = @id', { id: id! });
    const row = () => desk.sql.get<{ status: string; fence: number }>('SELECT status, fence FROM invoices WHERE id = @id', { id: id! });
    const before = await row();
    expect(await invoices.markRefunded(id!, new Date(), 1796181555662299)).toEqual({ kind: 'stale', fence: 1796181555662300 });
    expect(await invoices.markRefunded(id!, new Date(), 1796181555662300)).toEqual({ kind: 'stale', fence: 1796181555662300 });
    expect(await row()).toEqual(before);
    expect(await invoices.markRefunded(id!, new Date(), 1796181555662301)).toEqual({ kind: 'refunded' });
    expect(await row()).toEqual({ status: 'refunded', fence: 1796181555662301 });
    expect(await invoices.markRefunded(id!, new Date(), 1796181555662302)).toMatchObject({ kind: 'already-refunded' });
    expect(await invoices.markRefunded(4242, new Date(), 1)).toEqual({ kind: 'not-found' });

    await desk.sql.run('UPDATE invoices SET fence = 200 WHERE id = @id', { id: other! });
    expect(await invoices.markRefunded(other!, new Date())).toEqual({ kind: 'refunded' });
    expect(await desk.sql.get('SELECT status, fence FROM invoices WHERE id = @id', { id: other! })).toEqual({
      status: 'refunded',
      fence: 200
    });
  });
});
