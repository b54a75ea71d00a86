import { JSONSchema } from '@mcpfusion/core';
import { IsEnum, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
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

/** The variables of `billing://invoices/{id}` (URI variables are strings). */
export class InvoiceUriVariables {
  @JSONSchema({ description: 'The invoice id, in digits.' })
  @Matches(/^\d+$/, { message: 'id must be digits' })
  id!: string;
}

/** The tones of a collections letter. */
export const LETTER_TONES = ['friendly', 'firm'] as const;

/** How a collections letter sounds. */
export type LetterTone = (typeof LETTER_TONES)[number];

/** Arguments of the `billing.collections_letter` prompt (prompt arguments are strings). */
export class CollectionsLetterArgs {
  @JSONSchema({ description: 'The customer id, in digits (complete it to see the ids).' })
  @Matches(/^\d+$/, { message: 'customer must be a customer id in digits' })
  customer!: string;

  @JSONSchema({ description: 'friendly (the default) or firm.' })
  @IsOptional()
  @IsIn(LETTER_TONES)
  tone?: LetterTone;
}
