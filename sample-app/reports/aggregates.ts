import type { SqlRunner } from '../db/sql-database';
import { monthBounds } from './months';

/** Every month (YYYY-MM) that has invoices, oldest first. */
export async function monthsWithInvoices(db: SqlRunner): Promise<string[]> {
  const rows = await db.all<{ month: string }>('SELECT DISTINCT substr(issued_on, 1, 7) AS month FROM invoices ORDER BY month');
  return rows.map((row) => row.month);
}

/** Empties monthly_aggregates (inside the caller's transaction). */
export async function clearAggregates(db: SqlRunner): Promise<void> {
  await db.run('DELETE FROM monthly_aggregates');
}

/** Writes the aggregate row of one month from its invoices; returns how many invoices it covered. */
export async function aggregateMonth(db: SqlRunner, month: string, rebuiltAt: string): Promise<number> {
  const row = await db.get<{ invoice_count: number }>(
    `INSERT INTO monthly_aggregates (month, invoice_count, billed_cents, paid_cents, open_cents, refunded_cents, rebuilt_at)
     SELECT CAST(@month AS TEXT), COUNT(*), COALESCE(SUM(amount_cents), 0),
            COALESCE(SUM(CASE status WHEN 'paid' THEN amount_cents END), 0),
            COALESCE(SUM(CASE status WHEN 'open' THEN amount_cents END), 0),
            COALESCE(SUM(CASE status WHEN 'refunded' THEN amount_cents END), 0),
            CAST(@rebuiltAt AS TEXT)
       FROM invoices
      WHERE issued_on >= @from AND issued_on < @to
     RETURNING invoice_count`,
    { month, rebuiltAt, ...monthBounds(month, month) }
  );
  return row!.invoice_count;
}
