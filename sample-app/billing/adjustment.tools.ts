import { randomUUID } from 'node:crypto';
import {
  ask,
  Input,
  type InputRound,
  Interactive,
  Mutation,
  readInput,
  readRequestState,
  requireInput,
  ToolError,
  ToolProvider
} from '@mcpfusion/core';
import { ADJUSTMENT_REASON_TITLES, type AdjustmentReason } from './adjustment-reason';
import { AdjustmentRepository, type AdjustmentRecord } from './adjustment-repository';
import { AdjustmentRequest } from './billing.inputs';
import { AdjustmentView } from './billing.views';
import { alreadyRefunded, invoiceNotFound } from './invoice-errors';
import { InvoiceRepository, type InvoiceRecord } from './invoice-repository';
import { InvoiceStatus } from './invoice-status';
import { amountToCents, centsToAmount, formatMoney } from './money';
import { ResourceEvents } from './resource-events';
import { Scopes } from '../scopes';

/** What a declined adjustment answers. */
export const ADJUSTMENT_CANCELLED = 'Adjustment cancelled';

/**
 * What each request for input carries to the next round (signed by the framework, not
 * encrypted): the key that makes the final write idempotent, and the total the user saw.
 */
interface AdjustmentState {
  readonly requestKey: string;
  readonly totalCents: number;
}

/** Partial credits on an invoice, entered step by step. */
@ToolProvider()
export class AdjustmentTools {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly adjustments: AdjustmentRepository,
    private readonly events: ResourceEvents
  ) {}

  /**
   * Round 1 asks the reason, round 2 the amount (bounded by the invoice total), round 3
   * records it. The total seen at round 1 travels in the request state; if the invoice
   * changed meanwhile, the call is refused and nothing is written. Once recorded,
   * subscribers of `billing://invoices/<id>` are told (its adjustments changed).
   */
  // Answered once, applied once: a re-issued confirming round gets the first attempt's result.
  @Interactive({ exactlyOnce: true })
  @Mutation('billing.adjust', {
    scopes: [Scopes.BillingWrite],
    // Serialized with the refunds of the same invoice, beside those of others.
    serializeOn: (request: AdjustmentRequest) => `invoice:${request.id}`,
    title: 'Adjust invoice',
    description:
      'Credit part of an invoice. Asks the user for the reason (discount, billing error, goodwill), then the amount in the invoice currency (at most the invoice total), and records one adjustment.',
    output: AdjustmentView
  })
  async adjust(@Input() request: AdjustmentRequest): Promise<AdjustmentRecord | InputRound> {
    const invoice = await this.invoices.find(request.id);
    if (!invoice) throw new ToolError(invoiceNotFound(request.id));
    if (invoice.status === InvoiceStatus.Refunded) throw new ToolError(alreadyRefunded(request.id, invoice.refundedAt));

    const reason = readInput<AdjustmentReason>('reason');
    if (reason === undefined) {
      const state: AdjustmentState = { requestKey: randomUUID(), totalCents: invoice.amountCents };
      return requireInput.elicit(
        `Adjust invoice ${invoice.id} of ${invoice.customer.name} (${formatMoney(invoice.amountCents, invoice.currency)}): why?`,
        { reason: ask.enum(ADJUSTMENT_REASON_TITLES, 'Reason for the adjustment') },
        { state, onDecline: ADJUSTMENT_CANCELLED }
      );
    }
    const state = unchangedSinceFirstRound(invoice);
    // Answers accumulate: on this later round the reason is still there.
    const amount = readInput<number>('amount');
    if (amount === undefined) {
      return requireInput.elicit(
        `How much of ${formatMoney(invoice.amountCents, invoice.currency)} to credit on invoice ${invoice.id} (${ADJUSTMENT_REASON_TITLES[reason]})?`,
        { amount: ask.number(`Amount in ${invoice.currency}`).min(0.01).max(centsToAmount(invoice.amountCents)) },
        { state, onDecline: ADJUSTMENT_CANCELLED }
      );
    }
    const recorded = await this.adjustments.record({
      invoiceId: invoice.id,
      reason,
      amountCents: amountToCents(amount),
      at: new Date(),
      requestKey: state.requestKey
    });
    this.events.invoiceChanged(invoice.id);
    return recorded;
  }
}

/** The state carried from round 1, after checking the invoice total is still the one the user saw. */
function unchangedSinceFirstRound(invoice: InvoiceRecord): AdjustmentState {
  const state = readRequestState<AdjustmentState>();
  if (!state) throw new ToolError(`The adjustment of invoice ${invoice.id} lost its state; nothing was recorded. Start again.`);
  if (state.totalCents !== invoice.amountCents) {
    throw new ToolError(
      `Invoice ${invoice.id} changed while the adjustment was entered (its total was ${formatMoney(state.totalCents, invoice.currency)}, ` +
        `now ${formatMoney(invoice.amountCents, invoice.currency)}); nothing was recorded. Start again.`
    );
  }
  return state;
}
