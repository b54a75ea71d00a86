/** The URI template of one invoice as a resource. */
export const INVOICE_URI_TEMPLATE = 'billing://invoices/{id}';

/** The URI of invoice `id`: `billing://invoices/4`. */
export function invoiceUri(id: number): string {
  return `billing://invoices/${id}`;
}

/** Sends `notifications/resources/updated` for a URI (the app's `notifyResourceUpdated`). */
export type ResourceUpdatedSink = (uri: string) => void;

/**
 * Tells subscribed clients that a billing resource changed. Tool classes inject this
 * instead of the app: the app is not in its own container, and it does not exist yet when
 * its providers are registered (they are an argument of `FusionApp.create`). So the
 * instance is registered first and bound to the app right after `create` returns (see
 * `createBillingApp`); until then changes are dropped, as no client can be subscribed.
 */
export class ResourceEvents {
  private sink: ResourceUpdatedSink = () => undefined;

  /** Sends future changes to `sink`. Called once, by `createBillingApp`. */
  bind(sink: ResourceUpdatedSink): void {
    this.sink = sink;
  }

  /**
   * Invoice `id` changed (refunded, adjusted). Best effort: by now the write is committed,
   * so a failing notification must not turn the call into an error the user might retry.
   */
  invoiceChanged(id: number): void {
    try {
      this.sink(invoiceUri(id));
    } catch {
      // Nothing to undo; subscribers re-read the invoice on their next look.
    }
  }
}
