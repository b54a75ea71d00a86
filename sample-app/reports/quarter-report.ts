import type { SqlRunner } from '../db/sql-database';
import { monthBounds } from './months';
import type { MonthTotals, PeriodTotals } from './report.views';

/** One invoice as the quarter report needs it. */
export interface ReportRow {
  month: string;
  status: 'open' | 'paid' | 'refunded';
  amountCents: number;
}

const CHART_WIDTH = 40;

/** The three months (YYYY-MM) of a quarter. */
export function quarterMonths(year: number, quarter: number): string[] {
  const first = (quarter - 1) * 3 + 1;
  return [first, first + 1, first + 2].map((m) => `${year}-${String(m).padStart(2, '0')}`);
}

/** The invoices issued in a quarter. */
export function loadQuarterRows(db: SqlRunner, year: number, quarter: number): Promise<ReportRow[]> {
  const months = quarterMonths(year, quarter);
  return db.all<ReportRow>(
    `SELECT substr(issued_on, 1, 7) AS month, status, amount_cents AS "amountCents"
       FROM invoices
      WHERE issued_on >= @from AND issued_on < @to`,
    monthBounds(months[0]!, months[2]!)
  );
}

/** Totals per month (every month of the quarter, empty ones as zeros). */
export function totalsByMonth(months: readonly string[], rows: readonly ReportRow[]): MonthTotals[] {
  return months.map((month) => ({ month, ...sum(rows.filter((row) => row.month === month)) }));
}

/** The totals of several periods added up. */
export function addUp(periods: readonly PeriodTotals[]): PeriodTotals {
  const total = emptyTotals();
  for (const p of periods) {
    total.invoiceCount += p.invoiceCount;
    total.billedCents += p.billedCents;
    total.paidCents += p.paidCents;
    total.openCents += p.openCents;
    total.refundedCents += p.refundedCents;
    total.netCents += p.netCents;
  }
  return total;
}

/** Net per month as bars scaled to the largest month, so the model can show it as is. */
export function renderChart(months: readonly MonthTotals[]): string {
  const largest = Math.max(1, ...months.map((m) => Math.abs(m.netCents)));
  return months
    .map(
      (m) =>
        `${m.month} ${'#'.repeat(Math.round((Math.abs(m.netCents) / largest) * CHART_WIDTH)).padEnd(CHART_WIDTH)} ${formatCents(m.netCents)}`
    )
    .join('\n');
}

function sum(rows: readonly ReportRow[]): PeriodTotals {
  const t = emptyTotals();
  for (const row of rows) {
    t.invoiceCount += 1;
    t.billedCents += row.amountCents;
    if (row.status === 'paid') t.paidCents += row.amountCents;
    else if (row.status === 'open') t.openCents += row.amountCents;
    else t.refundedCents += row.amountCents;
  }
  t.netCents = t.billedCents - t.refundedCents;
  return t;
}

function emptyTotals(): PeriodTotals {
  return { invoiceCount: 0, billedCents: 0, paidCents: 0, openCents: 0, refundedCents: 0, netCents: 0 };
}

function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}
