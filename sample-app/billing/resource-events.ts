import { FUSION_APP, type FusionApp } from '@mcpfusion/core';
import { inject, injectable } from 'tsyringe';

/** The URI template of one invoice as a resource. */
export const INVOICE_URI_TEMPLATE = 'billing://invoices/{id}';

/** The URI of invoice `id`: `billing://invoices/4`. */
export function invoiceUri(id: number): string {
  return `billing://invoices/${id}`;
}

/**
 * Tells subscribed clients that a billing resource changed. Tool classes inject this rather
 * than the app itself, so they say what changed (an invoice) and not how clients are told.
 */
@injectable()
export class ResourceEvents {
  constructor(@inject(FUSION_APP) private readonly app: FusionApp) {}

  /**
   * Invoice `id` changed (refunded, adjusted). Best effort: by now the write is committed,
   * so a failing notification must not turn the call into an error the user might retry.
   */
  invoiceChanged(id: number): void {
    try {
      this.app.notifyResourceUpdated(invoiceUri(id));
    } catch {
      // Nothing to undo; subscribers re-read the invoice on their next look.
    }
  }
}
