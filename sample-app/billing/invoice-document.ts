import type { AdjustmentRecord } from './adjustment-repository';
import type { CustomerRecord, InvoiceRecord } from './invoice-repository';

/** One adjustment as the invoice resource shows it (no idempotency key). */
export type AdjustmentEntry = Pick<AdjustmentRecord, 'id' | 'reason' | 'amountCents' | 'createdAt'>;

/**
 * The JSON of the `billing://invoices/{id}` resource: the fields of `InvoiceView`, plus the
 * adjustments. Picked (never omitted) from the records, so a new internal column stays out.
 */
export interface InvoiceDocument extends Pick<InvoiceRecord, 'id' | 'amountCents' | 'currency' | 'status' | 'issuedOn' | 'refundedAt'> {
  customer: Pick<CustomerRecord, 'id' | 'name' | 'email'>;
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
