import { JSONSchema } from '@mcpfusion/core';
import { IsEnum, IsInt, IsOptional, Max, Min } from 'class-validator';
import { InvoiceStatus } from './invoice-status';

/** Input of `billing.invoice`. */
export class InvoiceLookup {
  @JSONSchema({ description: 'The invoice id (from billing.list).' })
  @IsInt()
  @Min(1)
  id!: number;
}

/** Input of `billing.list`. Every filter is optional; none lists the most recent invoices. */
export class InvoiceFilter {
  @JSONSchema({ description: 'Only invoices with this status.' })
  @IsOptional()
  @IsEnum(InvoiceStatus)
  status?: InvoiceStatus;

  @JSONSchema({ description: 'Only invoices of this customer id.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  customer?: number;

  @JSONSchema({ description: 'Most invoices to fetch, newest first (default 100).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** Input of `billing.refund`. */
export class RefundRequest {
  @JSONSchema({ description: 'The id of the invoice to refund. An invoice can be refunded once.' })
  @IsInt()
  @Min(1)
  id!: number;
}

/** Input of `billing.adjust`: only the invoice; the reason and the amount are asked of the user. */
export class AdjustmentRequest {
  @JSONSchema({ description: 'The id of the invoice to adjust (from billing.list). A refunded invoice cannot be adjusted.' })
  @IsInt()
  @Min(1)
  id!: number;
}
