import type { PresentationContext, Presenter } from '@mcpfusion/core';
import type { ChartedQuarterReport } from './report.views';

/**
 * Presents a quarter report for people and programs at once: one text block with the chart,
 * a line per month (what a terminal or a chat shows), and the report's figures as structured
 * content (allowlisted by `QuarterReport`, so the chart is not repeated there as a string).
 */
export const quarterReportPresenter: Presenter = {
  present(value: unknown, ctx: PresentationContext) {
    const report = value as ChartedQuarterReport;
    const shaped = ctx.shape(report);
    const text = [`Net per month, Q${report.quarter} ${report.year}:`, report.chart, `Invoices: ${report.totals.invoiceCount}`].join('\n');
    return { ...shaped, content: [{ type: 'text', text }] };
  }
};
