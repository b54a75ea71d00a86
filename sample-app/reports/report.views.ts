import { JSONSchema } from '@mcpfusion/core';
import { Type } from 'class-transformer';
import { IsInt, IsString, ValidateNested } from 'class-validator';

/** Invoice totals of a period, in cents, by status at the time of the report. */
export class PeriodTotals {
  @IsInt()
  invoiceCount!: number;

  @JSONSchema({ description: 'Sum of every invoice issued, whatever its status.' })
  @IsInt()
  billedCents!: number;

  @IsInt()
  paidCents!: number;

  @IsInt()
  openCents!: number;

  @IsInt()
  refundedCents!: number;

  @JSONSchema({ description: 'billedCents minus refundedCents.' })
  @IsInt()
  netCents!: number;
}

/** The totals of one month of a quarter. */
export class MonthTotals extends PeriodTotals {
  @JSONSchema({ description: 'YYYY-MM.' })
  @IsString()
  month!: string;
}

/** The output of `report.generate`. */
export class QuarterReport {
  @IsInt()
  year!: number;

  @IsInt()
  quarter!: number;

  @ValidateNested({ each: true })
  @Type(() => MonthTotals)
  months!: MonthTotals[];

  @ValidateNested()
  @Type(() => PeriodTotals)
  totals!: PeriodTotals;
}

/**
 * What `report.generate` returns: the report and its text chart. The chart is for people, so it
 * is not structured content (a JSON string would reach a terminal as one line of `\n`): the
 * presenter sends it as a text block of lines, and the report as the structured content.
 */
export interface ChartedQuarterReport extends QuarterReport {
  /** Net per month as a text bar chart, one line per month. */
  readonly chart: string;
}

/** The output of `reports.rebuild`. */
export class RebuildSummary {
  @JSONSchema({ description: 'Months now in monthly_aggregates.' })
  @IsInt()
  months!: number;

  @IsInt()
  invoices!: number;

  @JSONSchema({ description: 'ISO timestamp of the rebuild, stored on every row.' })
  @IsString()
  rebuiltAt!: string;
}
