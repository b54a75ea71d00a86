import { JSONSchema } from '@mcpfusion/core';
import { Type } from 'class-transformer';
import { IsEnum, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { AdjustmentReason } from './adjustment-reason';
import { InvoiceStatus } from './invoice-status';

/*
 * Output classes are allowlists: the framework copies into the result only the fields
 * declared here, so internal columns (customers.credit_limit_cents, invoices.internal_note)
 * that the repository does load can never reach a client by accident.
 */

/** A customer as clients see it. */
export class CustomerView {
  @IsInt()
  id!: number;

  @IsString()
  name!: string;

  @IsString()
  email!: string;
}

/** One invoice with its customer, the output of `billing.invoice` and `billing.refund`. */
export class InvoiceView {
  @IsInt()
  id!: number;

  @JSONSchema({ description: 'Amount in cents of the currency.' })
  @IsInt()
  amountCents!: number;

  @JSONSchema({ description: 'ISO 4217 currency code.' })
  @IsString()
  currency!: string;

  @IsEnum(InvoiceStatus)
  status!: InvoiceStatus;

  @JSONSchema({ description: 'Issue date, YYYY-MM-DD.' })
  @IsString()
  issuedOn!: string;

  @JSONSchema({ description: 'When it was refunded (ISO timestamp); absent unless refunded.' })
  @IsOptional()
  @IsString()
  refundedAt?: string;

  @ValidateNested()
  @Type(() => CustomerView)
  customer!: CustomerView;
}

/** One line of `billing.list`. */
export class InvoiceSummary {
  @IsInt()
  id!: number;

  @IsInt()
  customerId!: number;

  @IsString()
  customerName!: string;

  @JSONSchema({ description: 'Amount in cents of the currency.' })
  @IsInt()
  amountCents!: number;

  @IsString()
  currency!: string;

  @IsEnum(InvoiceStatus)
  status!: InvoiceStatus;

  @JSONSchema({ description: 'Issue date, YYYY-MM-DD.' })
  @IsString()
  issuedOn!: string;
}

/** One adjustment as the invoice resource shows it (no invoice id, no idempotency key). */
export class AdjustmentEntryView {
  @IsInt()
  id!: number;

  @IsEnum(AdjustmentReason)
  reason!: AdjustmentReason;

  @JSONSchema({ description: 'Amount credited, in cents of the invoice currency.' })
  @IsInt()
  amountCents!: number;

  @JSONSchema({ description: 'When it was recorded (ISO timestamp).' })
  @IsString()
  createdAt!: string;
}

/** One recorded adjustment, the output of `billing.adjust`. */
export class AdjustmentView extends AdjustmentEntryView {
  @IsInt()
  invoiceId!: number;
}

/** The JSON of the `billing://invoices/{id}` resource: the fields of `InvoiceView`, plus the adjustments. */
export class InvoiceDocumentView extends InvoiceView {
  @ValidateNested({ each: true })
  @Type(() => AdjustmentEntryView)
  adjustments!: AdjustmentEntryView[];
}
