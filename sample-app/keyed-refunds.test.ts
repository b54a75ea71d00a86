import { Database } from './db/database';
import { InvoiceRepository } from './billing/invoice-repository';
import { eachDatabase, inspect, invoiceRow, readInvoiceRow, tempDb, useBillingApp, type TempDb } from './test-helpers';

/**
 * Billing mutations are serialized per invoice (`serializeOn`), reports.rebuild app-wide; a
 * refund's UPDATE carries its lock grant's fencing token and refuses an older one.
 */
eachDatabase('billing mutations keyed by invoice', (database) => {
  const desk = useBillingApp({ database });

  test("refunds and adjustments take their invoice's key after validation; reports.rebuild takes the whole app", () => {
    expect(desk.app.describeChain('billing.refund')).toContain('keyed-lock');
    expect(desk.app.describeChain('billing.adjust')).toContain('keyed-lock');
    expect(desk.app.describeChain('reports.rebuild')).toContain('mutation-lock');
    expect(desk.app.describeChain('reports.rebuild')).not.toContain('keyed-lock');
  });

  test('a confirmed refund records the fencing token of its grant on the invoice', async () => {
    const id = (await desk.sql.get<{ id: number }>("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id LIMIT 1"))!.id;
    expect(((await readInvoiceRow(desk.sql, id)) as unknown as { fence: number }).fence).toBe(0);
    const result = await desk.app.callTool('billing.refund', { id }, { answers: { confirm: true } });
    expect(result.isError).toBeFalsy();
    const fence = ((await readInvoiceRow(desk.sql, id)) as unknown as { fence: number }).fence;
    expect(Number.isSafeInteger(fence) && fence > 0).toBe(true);
  });
});

describe('the fenced refund UPDATE', () => {
  let temp: TempDb;
  let db: Database;
  beforeEach(() => {
    temp = tempDb();
    db = new Database(temp.path);
  });
  afterEach(() => {
    db.close();
    temp.remove();
  });
  const openInvoice = () =>
    db.connection.prepare("SELECT id FROM invoices WHERE status = 'open' ORDER BY id LIMIT 1").pluck().get() as number;

  test('a stale holder (a token not above the fence) is refused and changes nothing; a later one writes', async () => {
    const invoices = new InvoiceRepository(db);
    const id = openInvoice();
    // A later holder of the invoice's lock wrote under token 200.
    db.connection.prepare('UPDATE invoices SET fence = 200 WHERE id = ?').run(id);
    const before = invoiceRow(db.connection, id);
    expect(await invoices.markRefunded(id, new Date(), 150)).toEqual({ kind: 'stale', fence: 200 });
    expect(await invoices.markRefunded(id, new Date(), 200)).toEqual({ kind: 'stale', fence: 200 });
    expect(invoiceRow(db.connection, id)).toEqual(before);
    expect(await invoices.markRefunded(id, new Date(), 250)).toEqual({ kind: 'refunded' });
    expect(invoiceRow(db.connection, id)).toMatchObject({ status: 'refunded', fence: 250 });
    expect(await invoices.markRefunded(id, new Date(), 300)).toMatchObject({ kind: 'already-refunded' });
  });

  test('without a token (a lock that gives none) the fence is neither checked nor changed', async () => {
    const invoices = new InvoiceRepository(db);
    const id = openInvoice();
    db.connection.prepare('UPDATE invoices SET fence = 200 WHERE id = ?').run(id);
    expect(await invoices.markRefunded(id, new Date())).toEqual({ kind: 'refunded' });
    expect(invoiceRow(db.connection, id)).toMatchObject({ status: 'refunded', fence: 200 });
  });

  test('a file from before the fence column gets it on open, its rows kept', () => {
    db.close();
    const old = inspect(temp.path);
    old.exec('ALTER TABLE invoices DROP COLUMN fence');
    const count = old.prepare('SELECT COUNT(*) FROM invoices').pluck().get();
    old.close();
    db = new Database(temp.path);
    expect(db.connection.prepare('SELECT COUNT(*) FROM invoices WHERE fence = 0').pluck().get()).toBe(count);
  });
});
