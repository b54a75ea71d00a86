import type SqliteDatabase from 'better-sqlite3';

/** Every month (YYYY-MM) that has invoices, oldest first. */
export function monthsWithInvoices(db: SqliteDatabase.Database): string[] {
  return db.prepare('SELECT DISTINCT substr(issued_on, 1, 7) AS month FROM invoices ORDER BY month').pluck().all() as string[];
}

/** Empties monthly_aggregates (inside the caller's transaction). */
export function clearAggregates(db: SqliteDatabase.Database): void {
  db.exec('DELETE FROM monthly_aggregates');
}

/** Writes the aggregate row of one month from its invoices; returns how many invoices it covered. */
export function aggregateMonth(db: SqliteDatabase.Database, month: string, rebuiltAt: string): number {
  const row = db
    .prepare(
      `INSERT INTO monthly_aggregates (month, invoice_count, billed_cents, paid_cents, open_cents, refunded_cents, rebuilt_at)
       SELECT @month, COUNT(*), COALESCE(SUM(amount_cents), 0),
              COALESCE(SUM(CASE status WHEN 'paid' THEN amount_cents END), 0),
              COALESCE(SUM(CASE status WHEN 'open' THEN amount_cents END), 0),
              COALESCE(SUM(CASE status WHEN 'refunded' THEN amount_cents END), 0),
              @rebuiltAt
         FROM invoices
        WHERE issued_on >= @month || '-01' AND issued_on < date(@month || '-01', '+1 month')
       RETURNING invoice_count`
    )
    .get({ month, rebuiltAt }) as { invoice_count: number };
  return row.invoice_count;
}
