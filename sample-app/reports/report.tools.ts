import { Action, Input, Mutation, progress, Signal, ToolProvider, type ProgressUpdate } from '@mcpfusion/core';
import { setTimeout as delay } from 'node:timers/promises';
import { SqlDatabase } from '../db/sql-database';
import { aggregateMonth, clearAggregates, monthsWithInvoices } from './aggregates';
import { addUp, loadQuarterRows, quarterMonths, renderChart, totalsByMonth } from './quarter-report';
import { QuarterQuery, RebuildOptions } from './report.inputs';
import { QuarterReport, RebuildSummary, type ChartedQuarterReport } from './report.views';
import { quarterReportPresenter } from './quarter-report.presenter';
import { Scopes } from '../scopes';
import { REBUILD_PANEL_URI } from '../views/sample-views';

/** Share of the progress bar the month chunks of a rebuild take; the commit is the rest. */
const REBUILD_CHUNKS_PERCENT = 95;

/** Reporting tools: a quarter report, and the rebuild of the monthly aggregates. */
@ToolProvider()
export class ReportTools {
  constructor(private readonly db: SqlDatabase) {}

  /** A quarter's totals per month, reported in stages so a client can show progress or cancel. */
  @Action('report.generate', {
    scopes: [Scopes.ReportsRead],
    title: 'Quarter report',
    description:
      'Totals of the invoices issued in one quarter, per month and overall (billed, paid, open, refunded, net, in cents), with a text chart. Reports progress.',
    output: QuarterReport,
    // The chart as a text block of lines, the report as structured content.
    presenter: quarterReportPresenter
  })
  async *generate(
    @Input() query: QuarterQuery,
    @Signal() signal: AbortSignal
  ): AsyncGenerator<ProgressUpdate, ChartedQuarterReport, undefined> {
    const months = quarterMonths(query.year, query.quarter);
    const rows = await loadQuarterRows(this.db, query.year, query.quarter);
    yield progress(30, 'rows loaded');
    signal.throwIfAborted();
    const perMonth = totalsByMonth(months, rows);
    const totals = addUp(perMonth);
    yield progress(60, 'totals computed');
    signal.throwIfAborted();
    const chart = renderChart(perMonth);
    yield progress(90, 'charts rendered');
    signal.throwIfAborted();
    return { year: query.year, quarter: query.quarter, months: perMonth, totals, chart };
  }

  /**
   * Rebuilds monthly_aggregates one month per chunk inside ONE transaction on a connection
   * of its own (SQLite: BEGIN IMMEDIATE on a writer connection; PostgreSQL: BEGIN on a pooled
   * client): readers keep seeing the previous table until the COMMIT, and an abort or error
   * rolls everything back, so the table is never half-built.
   */
  @Mutation('reports.rebuild', {
    scopes: [Scopes.BillingWrite],
    // A client with the tasks extension gets a task it can poll and cancel (the transaction rolls back).
    // A task at once: its record is written before the rebuild's long write transaction begins.
    task: { support: 'optional', create: 'at-once' },
    title: 'Rebuild monthly aggregates',
    // Hosts that render MCP Apps show the rebuild panel (a live bar, Run and Cancel).
    view: REBUILD_PANEL_URI,
    description:
      'Recompute the monthly_aggregates table from all invoices, month by month, in one transaction (all or nothing). Reports progress; cancelling leaves the previous table as it was.',
    output: RebuildSummary
  })
  async *rebuild(
    @Input() options: RebuildOptions,
    @Signal() signal: AbortSignal
  ): AsyncGenerator<ProgressUpdate, RebuildSummary, undefined> {
    signal.throwIfAborted();
    const tx = await this.db.beginWrite();
    // Also run from inside abort(): on abort the framework stops waiting for this generator and
    // releases the mutation lock, but the finally below runs only once the generator's current
    // await settles. Were it stuck in an await that ignores the signal, the next mutation would
    // find the write lock still held (SQLite: SQLITE_BUSY). SQLite rolls back at once; PostgreSQL
    // queues the ROLLBACK behind the statement in flight.
    const abandon = (): void => tx.abandon();
    signal.addEventListener('abort', abandon, { once: true });
    try {
      signal.throwIfAborted();
      const months = await monthsWithInvoices(tx);
      const rebuiltAt = new Date().toISOString();
      await clearAggregates(tx);
      let invoices = 0;
      for (const [index, month] of months.entries()) {
        signal.throwIfAborted();
        invoices += await aggregateMonth(tx, month, rebuiltAt);
        const percent = Math.max(1, Math.floor(((index + 1) / months.length) * REBUILD_CHUNKS_PERCENT));
        yield progress(percent, `month ${index + 1} of ${months.length}`);
        signal.throwIfAborted();
        if (options.throttleMs) await delay(options.throttleMs, undefined, { signal });
      }
      signal.throwIfAborted();
      await tx.commit();
      return { months: months.length, invoices, rebuiltAt };
    } finally {
      signal.removeEventListener('abort', abandon);
      abandon();
    }
  }
}
