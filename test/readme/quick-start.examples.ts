import 'reflect-metadata';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Action, FusionApp, Input, Mutation, ToolError, ToolProvider, progress } from '@mcpfusion/core';

const invoices = [
  { id: 1, customer: 'ACME', amountCents: 12_000, status: 'open', internalNote: 'slow payer' },
  { id: 2, customer: 'Globex', amountCents: 4_500, status: 'open', internalNote: '' }
];

class InvoiceQuery {
  @IsInt() @Min(1) id!: number; // the input schema and its validation come from these decorators
}

/** What a client sees of an invoice: an allowlist (internalNote stays on the server). */
class InvoiceView {
  @IsInt() id!: number;
  @IsString() customer!: string;
  @IsInt() amountCents!: number;
  @IsString() status!: string;
}

class ReportQuery {
  @IsInt() @Min(1) @Max(4) quarter!: number;
}

@ToolProvider()
class BillingTools {
  @Action('billing.invoice', { description: 'Read one invoice', output: InvoiceView })
  invoice(@Input() q: InvoiceQuery) {
    const found = invoices.find((invoice) => invoice.id === q.id);
    if (!found) throw new ToolError(`Invoice ${q.id} not found: call billing.invoice with 1 or 2.`);
    return found;
  }

  @Mutation('billing.void', { description: 'Void an open invoice', output: InvoiceView })
  void(@Input() q: InvoiceQuery) {
    const invoice = this.invoice(q);
    invoice.status = 'void'; // mutations run one at a time, in arrival order
    return invoice;
  }

  @Action('report.generate', { description: 'Quarterly report' })
  async *generate(@Input() q: ReportQuery) {
    yield progress(30, 'rows loaded'); // progress notifications, for clients that asked for them
    const rows = q.quarter === 1 ? invoices : [];
    return { quarter: q.quarter, invoices: rows.length, totalCents: rows.reduce((sum, row) => sum + row.amountCents, 0) };
  }
}

const app = FusionApp.create({ name: 'billing-desk', version: '1.0.0', tools: [BillingTools] });
app
  .listen({ transport: 'http', port: Number(process.env.PORT ?? 3000) }) // or { transport: 'stdio' }
  .then(({ url }) => process.stderr.write(`listening on ${url?.href}\n`)) // stderr: on stdio, stdout is the protocol
  .catch((error: unknown) => ((process.exitCode = 1), process.stderr.write(`failed to start: ${String(error)}\n`)));
