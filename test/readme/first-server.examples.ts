import 'reflect-metadata';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { injectable } from 'tsyringe';
import { Action, FusionApp, Input, JSONSchema, Mutation, Signal, ToolProvider, progress } from '@mcpfusion/core';

interface Invoice {
  id: number;
  customer: string;
  amountCents: number;
  status: 'open' | 'void';
  internalNote: string;
}

/** A stand-in for your data layer (the sample app uses SQLite). */
@injectable()
class Database {
  private readonly invoices: Invoice[] = [
    { id: 1, customer: 'ACME', amountCents: 12_000, status: 'open', internalNote: 'slow payer' },
    { id: 2, customer: 'Globex', amountCents: 4_500, status: 'open', internalNote: '' }
  ];

  invoice(id: number): Invoice {
    const found = this.invoices.find((invoice) => invoice.id === id);
    if (!found) throw new Error(`Invoice ${id} not found`); // a tool error the agent reads
    return found;
  }

  void(id: number): Invoice {
    const invoice = this.invoice(id);
    invoice.status = 'void';
    return invoice;
  }

  async rows(quarter: number, signal: AbortSignal): Promise<Invoice[]> {
    signal.throwIfAborted(); // a real query would pass the signal on
    return quarter === 1 ? this.invoices : [];
  }
}

class InvoiceQuery {
  @JSONSchema({ description: 'Invoice id' })
  @IsInt()
  @Min(1)
  id!: number;
}

/** What a client sees of an invoice: an allowlist (internalNote stays on the server). */
class InvoiceView {
  @IsInt() id!: number;
  @IsString() customer!: string;
  @IsInt() amountCents!: number;
  @IsString() status!: string;
}

class ReportQuery {
  @IsInt()
  @Min(1)
  @Max(4)
  quarter!: number;
}

@ToolProvider()
class BillingTools {
  constructor(private readonly db: Database) {} // injected by tsyringe

  @Action('billing.invoice', { description: 'Read one invoice with its customer', output: InvoiceView })
  invoice(@Input() q: InvoiceQuery) {
    return this.db.invoice(q.id); // fields InvoiceView does not declare never leave the server
  }

  @Mutation('billing.void', { description: 'Void an open invoice', output: InvoiceView })
  void(@Input() q: InvoiceQuery) {
    return this.db.void(q.id); // mutations run one at a time, in arrival order
  }

  @Action('report.generate', { description: 'Quarterly report' })
  async *generate(@Input() q: ReportQuery, @Signal() signal: AbortSignal) {
    const rows = await this.db.rows(q.quarter, signal);
    yield progress(30, 'rows loaded');
    const totalCents = rows.reduce((sum, row) => sum + row.amountCents, 0);
    yield progress(90, 'totals computed');
    return { quarter: q.quarter, invoices: rows.length, totalCents }; // shaped by the presenter like any return value
  }
}

const app = FusionApp.create({ name: 'billing-desk', version: '1.0.0', tools: [BillingTools], providers: [Database] });

async function main(): Promise<void> {
  const { url } = await app.listen({ transport: 'http', port: Number(process.env.PORT ?? 3000) }); // or { transport: 'stdio' }
  process.stderr.write(`listening on ${url?.href}\n`); // stderr: on stdio, stdout is the protocol channel
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
