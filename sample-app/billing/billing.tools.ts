import {
  Action,
  ask,
  type CallContext,
  cappedList,
  Ctx,
  Input,
  type InputRound,
  Interactive,
  Mutation,
  readInput,
  requireInput,
  ToolError,
  ToolProvider
} from '@mcpfusion/core';
import { InvoiceFilter, InvoiceLookup, RefundRequest } from './billing.inputs';
import { InvoiceSummary, InvoiceView } from './billing.views';
import { alreadyRefunded, invoiceNotFound, staleRefund } from './invoice-errors';
import { InvoiceRepository, type InvoiceListing, type InvoiceRecord } from './invoice-repository';
import { InvoiceStatus } from './invoice-status';
import { formatMoney } from './money';
import { ResourceEvents } from './resource-events';
import { Scopes } from '../scopes';
import { INVOICE_DESK_URI } from '../views/sample-views';

const DEFAULT_LIST_LIMIT = 100;

/** The invoice list's icon: an inline SVG (a data: URL, so clients fetch nothing). */
export const INVOICE_LIST_ICON = {
  src: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAyNCAyNCI+PHBhdGggZD0iTTYgMmg5bDUgNXYxNUg2eiIgZmlsbD0iIzI1NjNlYiIvPjxwYXRoIGQ9Ik05IDExaDhNOSAxNWg4TTkgMTloNSIgc3Ryb2tlPSIjZmZmIiBzdHJva2Utd2lkdGg9IjEuNSIvPjwvc3ZnPg==',
  mimeType: 'image/svg+xml',
  sizes: ['any']
};

/** What a declined (or unconfirmed) refund answers. */
export const REFUND_CANCELLED = 'Refund cancelled';

/** Invoice tools: look one up, list them, refund one (after the user confirms). Reading needs `billing:read` (when auth is on). */
@ToolProvider({ scopes: [Scopes.BillingRead] })
export class BillingTools {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly events: ResourceEvents
  ) {}

  /** One invoice with its customer; returns the full record and lets `InvoiceView` decide what leaves. */
  @Action('billing.invoice', {
    title: 'Invoice details',
    description: 'Read one invoice with its customer: amount (in cents), currency, status, issue date, refund time.',
    output: InvoiceView
  })
  async invoice(@Input() query: InvoiceLookup): Promise<InvoiceRecord> {
    const found = await this.invoices.find(query.id);
    if (!found) throw new ToolError(invoiceNotFound(query.id));
    return found;
  }

  /** Invoices, newest first; the presenter shows ten and says how many more matched. */
  @Action('billing.list', {
    title: 'List invoices',
    icons: [INVOICE_LIST_ICON],
    // Hosts that render MCP Apps show the result in the invoice desk; every other client gets the text.
    view: INVOICE_DESK_URI,
    description:
      'List invoices newest first, optionally only one status or one customer. Shows at most 10; narrow the filters to see others.',
    output: [InvoiceSummary],
    presenter: cappedList({ max: 10, guidance: 'Call billing.invoice with an id for the details of one invoice.' })
  })
  list(@Input() filter: InvoiceFilter): Promise<InvoiceListing[]> {
    return this.invoices.list({ status: filter.status, customerId: filter.customer, limit: filter.limit ?? DEFAULT_LIST_LIMIT });
  }

  /**
   * Refunds an invoice exactly once, after the user confirms. An unknown or already
   * refunded invoice fails before anything is asked. Every round re-reads the invoice (no
   * lock is held while the user answers) and the write keeps the guarded UPDATE, so a
   * refund made elsewhere between the rounds is refused rather than repeated. Subscribers
   * of `billing://invoices/<id>` are told once the refund is written. The write carries the
   * lock grant's fencing token (`ctx.lock`), which the UPDATE checks: a holder whose grant has
   * passed on (a paused process whose lease ran out) cannot write over a later holder.
   */
  // A confirmation answers one question once (a replay is refused), and the refund it confirms happens exactly once:
  // a re-issue of the confirming round after a broken stream gets the first attempt's result.
  @Interactive({ exactlyOnce: true })
  @Mutation('billing.refund', {
    scopes: [Scopes.BillingWrite],
    // With the tasks extension the refund is a task at once: the confirmation comes through tasks/update.
    task: { support: 'optional', create: 'at-once' },
    // Refunds of different invoices run side by side; two of one invoice, one after the other (reports.rebuild
    // stays app-wide: it waits for the refunds in flight and none starts while it runs).
    serializeOn: (request: RefundRequest) => `invoice:${request.id}`,
    title: 'Refund invoice',
    description:
      'Refund an invoice in full and mark it refunded, after the user confirms. An invoice can be refunded only once; refunding it again is an error.',
    output: InvoiceView
  })
  async refund(@Input() request: RefundRequest, @Ctx() ctx: CallContext): Promise<InvoiceRecord | InputRound> {
    const invoice = await this.invoices.find(request.id);
    if (!invoice) throw new ToolError(invoiceNotFound(request.id));
    if (invoice.status === InvoiceStatus.Refunded) throw new ToolError(alreadyRefunded(request.id, invoice.refundedAt));
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) {
      return requireInput.elicit(
        `Refund ${formatMoney(invoice.amountCents, invoice.currency)} to ${invoice.customer.name}?`,
        { confirm: ask.boolean('Approve the refund') },
        { onDecline: REFUND_CANCELLED }
      );
    }
    // A refusal, like a decline: a tool error (an InvoiceView is the only other result the output class allows).
    if (!confirm) throw new ToolError(REFUND_CANCELLED);
    // The grant's token is its key's (`invoice:<id>`); the default lock and the Redis lock both give one.
    const outcome = await this.invoices.markRefunded(request.id, new Date(), ctx.lock?.fencingToken);
    if (outcome.kind === 'not-found') throw new ToolError(invoiceNotFound(request.id));
    if (outcome.kind === 'already-refunded') throw new ToolError(alreadyRefunded(request.id, outcome.refundedAt));
    if (outcome.kind === 'stale') throw new ToolError(staleRefund(request.id));
    this.events.invoiceChanged(request.id);
    return (await this.invoices.find(request.id))!;
  }
}
