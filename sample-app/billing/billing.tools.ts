import { Action, cappedList, Input, Mutation, ToolProvider } from '@mcpfusion/core';
import { InvoiceFilter, InvoiceLookup, RefundRequest } from './billing.inputs';
import { InvoiceSummary, InvoiceView } from './billing.views';
import { InvoiceRepository, type InvoiceListing, type InvoiceRecord } from './invoice-repository';

const DEFAULT_LIST_LIMIT = 100;

/** Invoice tools: look one up, list them, refund one. */
@ToolProvider()
export class BillingTools {
  constructor(private readonly invoices: InvoiceRepository) {}

  /** One invoice with its customer; returns the full record and lets `InvoiceView` decide what leaves. */
  @Action('billing.invoice', {
    title: 'Invoice details',
    description: 'Read one invoice with its customer: amount (in cents), currency, status, issue date, refund time.',
    output: InvoiceView
  })
  invoice(@Input() query: InvoiceLookup): InvoiceRecord {
    const found = this.invoices.find(query.id);
    if (!found) throw new Error(notFound(query.id));
    return found;
  }

  /** Invoices, newest first; the presenter shows ten and says how many more matched. */
  @Action('billing.list', {
    title: 'List invoices',
    description:
      'List invoices newest first, optionally only one status or one customer. Shows at most 10; narrow the filters to see others.',
    output: [InvoiceSummary],
    presenter: cappedList({ max: 10, guidance: 'Call billing.invoice with an id for the details of one invoice.' })
  })
  list(@Input() filter: InvoiceFilter): InvoiceListing[] {
    return this.invoices.list({ status: filter.status, customerId: filter.customer, limit: filter.limit ?? DEFAULT_LIST_LIMIT });
  }

  /** Refunds an invoice exactly once; a repeat is an error that says when the first refund happened. */
  @Mutation('billing.refund', {
    title: 'Refund invoice',
    description: 'Refund an invoice in full and mark it refunded. An invoice can be refunded only once; refunding it again is an error.',
    output: InvoiceView
  })
  refund(@Input() request: RefundRequest): InvoiceRecord {
    const outcome = this.invoices.markRefunded(request.id, new Date());
    if (outcome.kind === 'not-found') throw new Error(notFound(request.id));
    if (outcome.kind === 'already-refunded') {
      throw new Error(`Invoice ${request.id} was already refunded at ${outcome.refundedAt}; nothing was changed.`);
    }
    return this.invoices.find(request.id)!;
  }
}

function notFound(id: number): string {
  return `Invoice ${id} does not exist. Call billing.list to find invoice ids.`;
}
