import { Input, ResourceTemplate, ToolProvider } from '@mcpfusion/core';
import { AdjustmentRepository } from './adjustment-repository';
import { InvoiceUriVariables } from './billing.inputs';
import { InvoiceDocumentView } from './billing.views';
import { InvoiceRepository, type InvoiceRecord } from './invoice-repository';
import type { AdjustmentRecord } from './adjustment-repository';
import { formatMoney } from './money';
import { INVOICE_URI_TEMPLATE, invoiceUri } from './resource-events';
import { Scopes } from '../scopes';

/** How many recent invoices `resources/list` shows. */
const LISTED_INVOICES = 10;

/** The most ids a completion returns (the protocol's cap). */
const MAX_COMPLETIONS = 100;

/** A concrete resource of the template, as `resources/list` shows it. */
export interface ListedInvoice {
  uri: string;
  name: string;
  title: string;
  mimeType: string;
}

/** Invoices as resources: `billing://invoices/{id}`, updated when an invoice is refunded or adjusted. */
@ToolProvider({ scopes: [Scopes.BillingRead] })
export class InvoiceResources {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly adjustments: AdjustmentRepository
  ) {}

  /**
   * The invoice with its customer and adjustments, as JSON. The records carry internal columns
   * (`internalNote`, `creditLimitCents`, `requestKey`); `output: InvoiceDocumentView` is the
   * allowlist that keeps them on the server. Undefined for an unknown id, which the framework
   * answers with -32602 and `data.uri`. Only the canonical spelling is the resource (`/4`, not `/04`):
   * notifications name that one, so a subscription to another spelling would never fire.
   */
  @ResourceTemplate(INVOICE_URI_TEMPLATE, {
    name: 'invoice',
    title: 'Invoice',
    description:
      'One invoice with its customer and adjustments: amount (in cents), currency, status, issue date, refund time. Subscribe to hear of refunds and adjustments.',
    mimeType: 'application/json',
    output: InvoiceDocumentView,
    list: 'recent',
    complete: { id: 'completeId' }
  })
  async invoice(@Input() variables: InvoiceUriVariables): Promise<(InvoiceRecord & { adjustments: AdjustmentRecord[] }) | undefined> {
    const id = Number(variables.id);
    if (!Number.isSafeInteger(id) || String(id) !== variables.id) return undefined;
    const found = await this.invoices.find(id);
    return found && { ...found, adjustments: await this.adjustments.forInvoice(id) };
  }

  /** The most recent invoices, for `resources/list` (the template reaches the others). */
  async recent(): Promise<ListedInvoice[]> {
    return (await this.invoices.list({ limit: LISTED_INVOICES })).map((invoice) => ({
      uri: invoiceUri(invoice.id),
      name: `invoice-${invoice.id}`,
      title: `Invoice ${invoice.id}: ${invoice.customerName}, ${formatMoney(invoice.amountCents, invoice.currency)} (${invoice.status})`,
      mimeType: 'application/json'
    }));
  }

  /** Completes the `id` variable: invoice ids starting with what was typed. */
  async completeId(value: string): Promise<string[]> {
    if (!/^\d*$/.test(value)) return [];
    return (await this.invoices.idsStartingWith(value, MAX_COMPLETIONS)).map(String);
  }
}
