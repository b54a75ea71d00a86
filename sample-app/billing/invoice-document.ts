import type { AdjustmentReason } from './adjustment-reason';
import type { AdjustmentRecord } from './adjustment-repository';
import type { InvoiceRecord } from './invoice-repository';
import type { InvoiceStatus } from './invoice-status';

/** One adjustment as the invoice resource shows it (no idempotency key). */
export interface AdjustmentEntry {
  id: number;
  reason: AdjustmentReason;
  amountCents: number;
  createdAt: string;
}

/** The JSON of the `billing://invoices/{id}` resource: the fields of `InvoiceView`, plus the adjustments. */
export interface InvoiceDocument {
  id: number;
  amountCents: number;
  currency: string;
  status: InvoiceStatus;
  issuedOn: string;
  refundedAt?: string;
  customer: { id: number; name: string; email: string };
  adjustments: AdjustmentEntry[];
}

/**
 * The resource's JSON, built field by field. A resource has no output class to act as the
 * allowlist (the framework serializes whatever the method returns), so this copy is the
 * allowlist: internal columns (`internalNote`, `creditLimitCents`, `requestKey`) are loaded
 * by the repositories but never copied here.
 */
export function toInvoiceDocument(invoice: InvoiceRecord, adjustments: readonly AdjustmentRecord[]): InvoiceDocument {
  return {
    id: invoice.id,
    amountCents: invoice.amountCents,
    currency: invoice.currency,
    status: invoice.status,
    issuedOn: invoice.issuedOn,
    ...(invoice.refundedAt !== undefined ? { refundedAt: invoice.refundedAt } : {}),
    customer: { id: invoice.customer.id, name: invoice.customer.name, email: invoice.customer.email },
    adjustments: adjustments.map((a) => ({ id: a.id, reason: a.reason, amountCents: a.amountCents, createdAt: a.createdAt }))
  };
}
