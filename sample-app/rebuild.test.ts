import type SqliteDatabase from 'better-sqlite3';
import type { FusionApp } from '@mcpfusion/core';
import { connectTestClient } from '@mcpfusion/core/testing';
import { createBillingApp } from './app';
import { Database } from './db/database';
import { aggregates, TEST_STATE_KEY, textOf, useBillingApp, writeLockIsFree, type AggregateRow } from './test-helpers';
import { rebuildBesideReadAndRefund } from './scenarios';

/** billing.refund asks the user to confirm; these tests always do. */
const CONFIRM = { answers: { confirm: true } };

const desk = useBillingApp();

/** What a correct rebuild must produce, computed by the test from the invoices. */
function expectedAggregates(db: SqliteDatabase.Database): Array<Omit<AggregateRow, 'rebuilt_at'>> {
  const rows = db.prepare('SELECT status, amount_cents, issued_on FROM invoices').all() as Array<{
    status: string;
    amount_cents: number;
    issued_on: string;
  }>;
  const months = [...new Set(rows.map((r) => r.issued_on.slice(0, 7)))].sort();
  return months.map((month) => {
    const of = rows.filter((r) => r.issued_on.startsWith(month));
    const by = (status: string): number => of.filter((r) => r.status === status).reduce((s, r) => s + r.amount_cents, 0);
    return {
      month,
      invoice_count: of.length,
      billed_cents: of.reduce((s, r) => s + r.amount_cents, 0),
      paid_cents: by('paid'),
      open_cents: by('open'),
      refunded_cents: by('refunded')
    };
  });
}

function withoutTimestamp(rows: AggregateRow[]): Array<Omit<AggregateRow, 'rebuilt_at'>> {
  return rows.map(({ rebuilt_at: _ignored, ...rest }) => rest);
}

/** A full rebuild, then a refund, so the table holds a known state that a new rebuild would change. */
async function staleAggregates(): Promise<{ before: AggregateRow[]; refundedId: number }> {
  expect((await desk.app.callTool('reports.rebuild', {})).isError).toBeFalsy();
  const paid = desk.disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id LIMIT 1").pluck().get() as number;
  expect((await desk.app.callTool('billing.refund', { id: paid }, CONFIRM)).isError).toBeFalsy();
  const before = aggregates(desk.disk);
  expect(withoutTimestamp(before)).not.toEqual(expectedAggregates(desk.disk));
  return { before, refundedId: paid };
}

test('the seed leaves monthly_aggregates empty until the first rebuild', () => {
  expect(aggregates(desk.disk)).toEqual([]);
});

test('reports.rebuild fills monthly_aggregates with the totals of every month, reporting each month', async () => {
  const seen: Array<[number, string | undefined]> = [];
  const result = await desk.app.callTool('reports.rebuild', {}, { onProgress: (p, m) => seen.push([p, m]) });

  expect(result.isError).toBeFalsy();
  const summary = result.structuredContent as { months: number; invoices: number; rebuiltAt: string };
  expect(summary).toEqual({ months: 24, invoices: 40, rebuiltAt: expect.any(String) });
  const rows = aggregates(desk.disk);
  expect(rows).toHaveLength(24);
  expect(withoutTimestamp(rows)).toEqual(expectedAggregates(desk.disk));
  expect(new Set(rows.map((r) => r.rebuilt_at))).toEqual(new Set([summary.rebuiltAt]));

  expect(seen[0]).toEqual([expect.any(Number), 'month 1 of 24']);
  expect(seen[seen.length - 1]).toEqual([95, 'month 24 of 24']);
  const percents = seen.map(([p]) => p);
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  expect(writeLockIsFree(desk.disk)).toBe(true);
});

test('a second rebuild replaces the table and picks up refunds made since', async () => {
  const { refundedId } = await staleAggregates();
  const result = await desk.app.callTool('reports.rebuild', {});
  expect(result.isError).toBeFalsy();
  expect(withoutTimestamp(aggregates(desk.disk))).toEqual(expectedAggregates(desk.disk));
  expect(desk.disk.prepare('SELECT status FROM invoices WHERE id = ?').pluck().get(refundedId)).toBe('refunded');
});

test('readers never see the half-built table while the rebuild runs', async () => {
  const { before } = await staleAggregates();
  const mainConnection = desk.app.container.resolve(Database).connection;
  const midway: AggregateRow[][] = [];

  const result = await desk.app.callTool(
    'reports.rebuild',
    {},
    {
      onProgress: (_p, message) => {
        if (message === 'month 3 of 24') {
          // The rebuild has deleted every row and written three, uncommitted: both the
          // app's own connection and an outside one still see the old table in full.
          midway.push(aggregates(mainConnection as SqliteDatabase.Database), aggregates(desk.disk));
        }
      }
    }
  );

  expect(result.isError).toBeFalsy();
  expect(midway).toEqual([before, before]);
  expect(withoutTimestamp(aggregates(desk.disk))).toEqual(expectedAggregates(desk.disk));
});

test('a rebuild cancelled after its first month leaves the previous table intact, and the next mutation runs at once', async () => {
  const { before } = await staleAggregates();
  const controller = new AbortController();
  const seen: Array<string | undefined> = [];

  const result = await desk.app.callTool(
    'reports.rebuild',
    {},
    {
      signal: controller.signal,
      onProgress: (_p, message) => {
        seen.push(message);
        controller.abort();
      }
    }
  );

  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/cancelled/i);
  expect(seen).toEqual(['month 1 of 24']);
  expect(aggregates(desk.disk)).toEqual(before);
  expect(writeLockIsFree(desk.disk)).toBe(true);

  // With the write lock still held, this refund would wait out the 5 s busy timeout and fail.
  const next = desk.disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id DESC LIMIT 1").pluck().get() as number;
  const started = performance.now();
  const refund = await desk.app.callTool('billing.refund', { id: next }, CONFIRM);
  expect(refund.isError).toBeFalsy();
  expect(performance.now() - started).toBeLessThan(1_000);
  expect(desk.disk.prepare('SELECT status FROM invoices WHERE id = ?').pluck().get(next)).toBe('refunded');
  expect(aggregates(desk.disk)).toEqual(before);
});

test('a refund already queued behind a rebuild runs as soon as the rebuild is cancelled', async () => {
  const { before } = await staleAggregates();
  const controller = new AbortController();
  const paid = desk.disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id DESC LIMIT 1").pluck().get() as number;
  let refund: Promise<{ isError?: boolean; ms: number }> | undefined;
  const started = performance.now();

  const rebuild = await desk.app.callTool(
    'reports.rebuild',
    {},
    {
      signal: controller.signal,
      onProgress: () => {
        // Queued on the mutation lock first, so it is granted the lock the moment the rebuild lets go.
        refund = desk.app
          .callTool('billing.refund', { id: paid }, CONFIRM)
          .then((r) => ({ isError: r.isError, ms: performance.now() - started }));
        controller.abort();
      }
    }
  );

  expect(rebuild.isError).toBe(true);
  const outcome = await refund!;
  expect(outcome.isError).toBeFalsy();
  expect(outcome.ms).toBeLessThan(1_000);
  expect(aggregates(desk.disk)).toEqual(before);
  expect(desk.disk.prepare('SELECT status FROM invoices WHERE id = ?').pluck().get(paid)).toBe('refunded');
});

test('a rebuild cancelled during its throttle wait rolls back too', async () => {
  const { before } = await staleAggregates();
  const controller = new AbortController();

  const result = await desk.app.callTool(
    'reports.rebuild',
    { throttleMs: 1000 },
    {
      signal: controller.signal,
      // Aborts once the generator has moved on to its wait after month 1.
      onProgress: () => void setImmediate(() => controller.abort())
    }
  );

  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/cancelled/i);
  expect(aggregates(desk.disk)).toEqual(before);
  expect(writeLockIsFree(desk.disk)).toBe(true);
  expect((await desk.app.callTool('billing.refund', { id: 2 }, CONFIRM)).isError).toBeFalsy();
});

test('during a throttled rebuild, reads run at once and mutations wait their turn', async () => {
  await staleAggregates();
  const paid = desk.disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id DESC LIMIT 1").pluck().get() as number;
  const order = await rebuildBesideReadAndRefund(desk.app, paid);
  expect(order).toEqual(['read', 'rebuild', 'refund']);
  // The refund ran after the rebuild committed, so the table is stale by exactly that invoice.
  expect(withoutTimestamp(aggregates(desk.disk))).not.toEqual(expectedAggregates(desk.disk));
});

test('closing the app during a rebuild rolls it back and releases the file', async () => {
  const { before } = await staleAggregates();
  let closing: Promise<void> | undefined;

  const result = await desk.app.callTool(
    'reports.rebuild',
    { throttleMs: 1000 },
    {
      onProgress: () => {
        closing ??= desk.app.close();
      }
    }
  );
  await closing;

  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/shutting down/);
  expect(aggregates(desk.disk)).toEqual(before);
  expect(writeLockIsFree(desk.disk)).toBe(true);
});

test.each(['modern', 'legacy-memory'] as const)('a real client sees the rebuild progress and result (%s)', async (era) => {
  const { client, close } = await connectTestClient(desk.app, { era });
  try {
    const messages: string[] = [];
    const result = await client.callTool({ name: 'reports.rebuild', arguments: {} }, { onprogress: (p) => messages.push(p.message ?? '') });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ months: 24, invoices: 40 });
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(messages[0]).toBe('month 1 of 24');
    expect(aggregates(desk.disk)).toHaveLength(24);
  } finally {
    await close();
  }
});

describe('with an in-memory database', () => {
  let memory: FusionApp;
  beforeEach(() => {
    memory = createBillingApp({ dbPath: ':memory:', stateKey: TEST_STATE_KEY });
  });
  afterEach(() => memory.close());

  test('the rebuild runs on the one connection, and a cancelled one still rolls back', async () => {
    const db = memory.container.resolve(Database).connection as SqliteDatabase.Database;
    expect((await memory.callTool('reports.rebuild', {})).isError).toBeFalsy();
    const before = aggregates(db);
    expect(before).toHaveLength(24);
    db.exec("UPDATE monthly_aggregates SET rebuilt_at = 'marker'");
    const marked = aggregates(db);

    const controller = new AbortController();
    const result = await memory.callTool('reports.rebuild', {}, { signal: controller.signal, onProgress: () => controller.abort() });

    expect(result.isError).toBe(true);
    expect(db.inTransaction).toBe(false);
    expect(aggregates(db)).toEqual(marked);
    expect((await memory.callTool('billing.refund', { id: 1 }, CONFIRM)).isError).toBeFalsy();
  });
});
