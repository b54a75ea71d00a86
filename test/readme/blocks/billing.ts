/*
 * "Your own code" that the guides' TypeScript blocks import (`from './billing'`): the blocks are
 * compiled as shown, each a module of its own next to this file (test/readme/doc-blocks.ts).
 */
import { IsInt, IsString, Matches, Min } from 'class-validator';
import { injectable } from 'tsyringe';
import { Action, Input, ToolError, ToolProvider } from '@mcpfusion/core';

/** The input of a refund: the invoice's id. */
export class RefundRequest {
  @IsInt() @Min(1) id!: number;
}

/** What a refund returns. */
export class RefundedInvoice {
  @IsInt() id!: number;
  @IsString() status!: string;
}

/** One invoice, as the repository keeps it (amounts in cents). */
export interface Invoice {
  id: number;
  customer: string;
  amount: number;
  status: 'open' | 'refunded';
}

/** Cents as dollars with two decimals: `12000` → `120.00`. */
export function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** An in-memory stand-in for the data layer. */
@injectable()
export class InvoiceRepository {
  private readonly invoices: Invoice[] = [{ id: 1, customer: 'ACME', amount: 12_000, status: 'open' }];

  find(id: number): Invoice {
    const found = this.invoices.find((invoice) => invoice.id === id);
    if (!found) throw new ToolError(`Invoice ${id} not found: call billing.list for the ids.`);
    return found;
  }

  markRefunded(id: number, fencingToken?: number): RefundedInvoice {
    const invoice = this.find(id);
    if (invoice.status === 'refunded') throw new ToolError(`Invoice ${id} is already refunded.`);
    void fencingToken; // a real repository writes it with the row (a fenced UPDATE)
    invoice.status = 'refunded';
    return { id, status: invoice.status };
  }

  countOpen(): number {
    return this.invoices.filter((invoice) => invoice.status === 'open').length;
  }

  view(id: string): Invoice | undefined {
    return this.invoices.find((invoice) => String(invoice.id) === id);
  }

  recent(): Invoice[] {
    return [...this.invoices].reverse();
  }

  idsStartingWith(prefix: string): string[] {
    return this.invoices.map((invoice) => String(invoice.id)).filter((id) => id.startsWith(prefix));
  }
}

/** A tool class of the billing desk. */
@ToolProvider()
export class BillingTools {
  constructor(private readonly invoices: InvoiceRepository) {}

  @Action('billing.invoice', { description: 'Read one invoice' })
  invoice(@Input() request: RefundRequest): Invoice {
    return this.invoices.find(request.id);
  }
}

/** The variables of the `billing://invoices/{id}` template. */
export class InvoiceVars {
  @Matches(/^\d+$/) id!: string;
}

/** The arguments of the collections-letter prompt. */
export class LetterArgs {
  @Matches(/^\d+$/) customer!: string;
}

/** The input of a payout. */
export class PayoutRequest {
  @IsInt() @Min(1) invoiceId!: number;
}

/** The input of a ledger export. */
export class ExportRequest {
  @IsInt() @Min(2000) year!: number;
}

/** Writes one month of the ledger somewhere slow. */
export async function writeMonth(year: number, month: number): Promise<void> {
  await Promise.resolve(`${year}-${month}`);
}

/** A ledger's tools (the composition guide mounts them under a namespace). */
@ToolProvider()
export class LedgerTools {
  @Action('ledger.balance', { description: 'The ledger balance, in cents.' })
  balance(): number {
    return 0;
  }
}

/** A report's tools (the composition guide's app of its own). */
@ToolProvider()
export class ReportTools {
  @Action('report.summary', { description: 'A one-line summary of the books.' })
  summary(): string {
    return 'all quiet';
  }
}
