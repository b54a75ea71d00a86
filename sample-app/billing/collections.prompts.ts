import { Input, Prompt, ToolError, ToolProvider } from '@mcpfusion/core';
import { CollectionsLetterArgs, type LetterTone } from './billing.inputs';
import { CustomerRepository } from './customer-repository';
import { InvoiceRepository, type InvoiceListing } from './invoice-repository';
import { InvoiceStatus } from './invoice-status';
import { formatMoney } from './money';
import { Scopes } from '../scopes';

/** The most open invoices a letter lists (the most recent ones). */
const MAX_LETTER_INVOICES = 100;

/** The most ids a completion returns (the protocol's cap). */
const MAX_COMPLETIONS = 100;

const TONE_GUIDANCE: Readonly<Record<LetterTone, string>> = {
  friendly: 'Tone: friendly. Assume an oversight; thank them for their business and make paying easy.',
  firm: 'Tone: firm. Be courteous but direct: the invoices are overdue and payment is expected now. No threats.'
};

/** One prompt message (the protocol's shape, text only). */
export interface TextPromptMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string };
}

/** Prompts for the people who chase payments. */
@ToolProvider({ scopes: [Scopes.BillingRead] })
export class CollectionsPrompts {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly invoices: InvoiceRepository
  ) {}

  /**
   * Asks the model to draft a collections letter to one customer, listing its open invoices
   * (date and amount, oldest first) and their total. An unknown customer, or one with
   * nothing open, is an error: there is no letter to write.
   */
  @Prompt('billing.collections_letter', {
    title: 'Collections letter',
    description:
      'Draft a collections letter to a customer about its open invoices (listed with dates and amounts). Tone: friendly or firm.',
    complete: { customer: 'completeCustomer' }
  })
  async collectionsLetter(@Input() args: CollectionsLetterArgs): Promise<TextPromptMessage[]> {
    const customer = await this.customers.find(Number(args.customer));
    if (!customer) throw new ToolError(`Customer ${args.customer} does not exist. Complete the customer argument to see the customer ids.`);
    const open = await this.invoices.list({ status: InvoiceStatus.Open, customerId: customer.id, limit: MAX_LETTER_INVOICES });
    if (open.length === 0)
      throw new ToolError(`Customer ${customer.id} (${customer.name}) has no open invoices: there is nothing to collect.`);
    const oldestFirst = [...open].reverse();
    const text = [
      `Draft a collections letter to ${customer.name} <${customer.email}> (customer ${customer.id}) about these open invoices:`,
      '',
      ...oldestFirst.map((i) => `- Invoice ${i.id}, issued ${i.issuedOn}: ${formatMoney(i.amountCents, i.currency)}`),
      ...(open.length === MAX_LETTER_INVOICES ? [`(Only the ${MAX_LETTER_INVOICES} most recent open invoices are listed.)`] : []),
      '',
      `Total of the invoices above: ${totals(open)}.`,
      '',
      TONE_GUIDANCE[args.tone ?? 'friendly'],
      'List every invoice above with its number, date and amount, state the total, and ask for payment within 14 days ' +
        'or a reply if an invoice is disputed. Write only the letter, signed "Accounts Receivable".'
    ].join('\n');
    return [{ role: 'user', content: { type: 'text', text } }];
  }

  /** Completes the `customer` argument: customer ids starting with what was typed. */
  async completeCustomer(value: string): Promise<string[]> {
    if (!/^\d*$/.test(value)) return [];
    return (await this.customers.idsStartingWith(value, MAX_COMPLETIONS)).map(String);
  }
}

/** The sum per currency: `€4,575.00`, or `€1,000.00 + $250.00` when currencies differ. */
function totals(invoices: readonly InvoiceListing[]): string {
  const byCurrency = new Map<string, number>();
  for (const i of invoices) byCurrency.set(i.currency, (byCurrency.get(i.currency) ?? 0) + i.amountCents);
  return [...byCurrency].map(([currency, cents]) => formatMoney(cents, currency)).join(' + ');
}
