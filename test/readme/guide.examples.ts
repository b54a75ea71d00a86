/*
 * Programs around the guides' snippets, run by test/readme/readme.test.ts (the README's refund snippet asks once, …).
 * The guides' blocks themselves compile as shown, each on its own (test/readme/doc-blocks.ts).
 */
import 'reflect-metadata';
import { IsInt, IsNumber, IsOptional, IsString, Matches, Min, ValidateIf } from 'class-validator';
import type SqliteDatabase from 'better-sqlite3';
import { inject, injectable } from 'tsyringe';
import {
  Action,
  CALL_AUTH,
  CALL_CONTEXT,
  CALL_SIGNAL,
  Ctx,
  FusionApp,
  Input,
  Interactive,
  JSONSchema,
  Mutation,
  Prompt,
  Resource,
  ResourceTemplate,
  SqliteTaskStore,
  ToolError,
  ToolProvider,
  ask,
  readInput,
  requireInput,
  jwtVerifier,
  progress,
  type CallContext,
  type CallerAuth,
  type Constructor,
  type MiddlewareFn,
  type PresentationContext,
  type Presenter
} from '@mcpfusion/core';
import { connectTestClient } from '@mcpfusion/core/testing';
import { RedisContinuationStore, RedisMutationLock, RedisServerEventBus, RedisTaskStore, connectRedis } from '@mcpfusion/core/redis';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export class NoteInput {
  @JSONSchema({ type: ['string', 'null'] })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null)
  @IsString()
  note?: string | null;
}

@injectable()
class NextStepPresenter implements Presenter {
  present(value: unknown, ctx: PresentationContext) {
    return ctx.shape(value, ['Next: call billing.invoice with an id.']); // the default shaping plus a note
  }
}

@injectable()
class AuditLog {
  constructor(@inject(CALL_CONTEXT) private readonly ctx: CallContext<{ user: string }>, @inject(CALL_SIGNAL) private readonly signal: AbortSignal) {}

  entry(): string {
    return `${this.ctx.user} called ${this.ctx.tool.name}${this.signal.aborted ? ' (cancelled)' : ''}`;
  }
}

interface Invoice {
  id: number;
  customer: string;
  amount: number;
  status: 'open' | 'refunded';
}

/** An in-memory stand-in for the data layer. */
@injectable()
export class InvoiceRepository {
  private readonly invoices: Invoice[] = [{ id: 1, customer: 'ACME', amount: 120, status: 'open' }];

  find(id: number): Invoice {
    const found = this.invoices.find((invoice) => invoice.id === id);
    if (!found) throw new Error(`Invoice ${id} not found`);
    if (found.status === 'refunded') throw new Error(`Invoice ${id} is already refunded`);
    return found;
  }

  markRefunded(id: number): Invoice {
    const invoice = this.find(id);
    invoice.status = 'refunded';
    return invoice;
  }

  countOpen(): number {
    return this.invoices.filter((invoice) => invoice.status === 'open').length;
  }

  view(id: string): Invoice | undefined {
    return this.invoices.find((invoice) => String(invoice.id) === id);
  }

  recent(): Invoice[] {
    return this.invoices.slice(-10);
  }

  idsStartingWith(prefix: string): string[] {
    return this.invoices.map((invoice) => String(invoice.id)).filter((id) => id.startsWith(prefix));
  }
}

const dollars = (amount: number): string => amount.toFixed(2);

export class RefundRequest {
  @IsInt() @Min(1) id!: number;
}

/** What the refund returns: the refunded invoice, as listed in the tool's outputSchema. */
export class RefundedInvoice {
  @IsInt() id!: number;
  @IsString() customer!: string;
  @IsNumber() amount!: number;
  @IsString() status!: string;
}

@ToolProvider()
export class RefundTools {
  constructor(private readonly invoices: InvoiceRepository) {}

  // imports: Interactive, Mutation, Input, ToolError, ask, readInput, requireInput from '@mcpfusion/core'
  @Interactive({ singleUseState: true })                         // a confirmation cannot be replayed
  @Mutation('billing.refund', { description: 'Refund an invoice in full, after the user confirms', output: RefundedInvoice })
  refund(@Input() { id }: RefundRequest) {
    const invoice = this.invoices.find(id);                     // unknown or refunded → throw before asking
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) {                                 // not asked yet: ask
      return requireInput.elicit(`Refund $${dollars(invoice.amount)} to ${invoice.customer}?`,
        { confirm: ask.boolean('Approve the refund') },
        { onDecline: 'Refund cancelled' });                       // declined → this text as a tool error, nothing written
    }
    if (!confirm) throw new ToolError('Refund cancelled');       // answered "no": a tool error too, not a RefundedInvoice
    return this.invoices.markRefunded(id);                       // runs once, on the confirmed round
  }
}

@ToolProvider()
export class ExactlyOnceRefunds {
  constructor(private readonly invoices: InvoiceRepository) {}

  @Interactive({ exactlyOnce: true })
  @Mutation('billing.refund-once', { description: 'Refund an invoice in full, after the user confirms: exactly once' })
  refund(@Input() { id }: RefundRequest) {
    const confirm = readInput<boolean>('confirm');
    if (confirm === undefined) return requireInput.elicit(`Refund invoice ${id}?`, { confirm: ask.boolean('Approve the refund') });
    return confirm ? this.invoices.markRefunded(id) : 'Refund cancelled';
  }
}

export class InvoiceVars {
  @Matches(/^\d+$/) id!: string;
}

export class LetterArgs {
  @Matches(/^\d+$/) customer!: string;
}

@ToolProvider()
class InvoiceResources {
  constructor(private readonly invoices: InvoiceRepository) {}

  @Resource('billing://summary', { name: 'summary', mimeType: 'text/plain' })
  summary() { return `Open invoices: ${this.invoices.countOpen()}`; }     // string → text; bytes → base64 blob; object → JSON

  @ResourceTemplate('billing://invoices/{id}', { name: 'invoice', mimeType: 'application/json', list: 'recent', complete: { id: 'completeId' } })
  invoice(@Input() vars: InvoiceVars) { return this.invoices.view(vars.id); } // undefined → -32602 with data.uri

  recent() { return this.invoices.recent().map((i) => ({ uri: `billing://invoices/${i.id}`, name: `Invoice ${i.id}` })); }
  completeId(value: string) { return this.invoices.idsStartingWith(value); }

  @Prompt('billing.collections_letter', { description: 'Draft a collections letter', complete: { customer: 'completeCustomer' } })
  letter(@Input() args: LetterArgs) { return `Draft a friendly collections letter for ${args.customer} …`; } // string | messages | GetPromptResult

  completeCustomer(value: string) { return ['1', '2', '10'].filter((id) => id.startsWith(value)); }
}

class InvoiceQuery {
  @IsInt() @Min(1) id!: number;
}

@injectable()
export class Database {
  invoice(id: number) {
    return { id, customer: { name: 'ACME' } };
  }
}

@ToolProvider()
export class BillingTools {
  constructor(private readonly db: Database) {}

  @Action('billing.invoice', { description: 'Read one invoice' })
  invoice(@Input() q: InvoiceQuery) {
    return this.db.invoice(q.id);
  }

  @Action('report.generate', { description: 'Quarterly report' })
  generate() {
    return 'report';
  }
}

/** The transport options, as the README shows them. */
export async function serve(app: FusionApp, idleTimeoutMs: number, maxSessions: number): Promise<void> {
  await app.listen({ transport: 'stdio' });
  await app.listen({ transport: 'http', host: '127.0.0.1', port: 3000, path: '/mcp', responseMode: 'sse', sessions: { idleTimeoutMs, maxSessions } });
}

/** Testing through the container and through a real client, as the README shows it. */
export async function testTools(realDb: Database, fakeDb: Database, expect: (value: unknown) => { toEqual(expected: unknown): void }): Promise<void> {
  const app = FusionApp.create({ tools: [BillingTools], providers: [{ provide: Database, useValue: realDb }] });
  app.container.register(Database, { useValue: fakeDb }); // this app only
  const result = await app.callTool('billing.invoice', { id: 1 });
  expect(result.structuredContent).toEqual({ id: 1, customer: { name: 'ACME' } });
}

export async function testWithClient(app: FusionApp, seen: unknown[]): Promise<void> {
  const { client, close } = await connectTestClient(app, { era: 'modern' }); // or 'legacy-http', 'legacy-memory'
  const result = await client.callTool({ name: 'report.generate', arguments: { year: 2025, quarter: 1 } }, { onprogress: (p) => seen.push(p) });
  await close();
  await app.close();
  void result;
}

/** What the README's fragments declare, used (so that the compiler checks them whole). */
export const declared = [NextStepPresenter, AuditLog, InvoiceResources];

const auditTrail: MiddlewareFn = async (ctx, next) => {
  const started = Date.now();
  try {
    return await next(); // what the handler returned
  } finally {
    process.stderr.write(`${ctx.tool.name} took ${Date.now() - started} ms\n`);
  }
};

export async function connectOwnClient(app: FusionApp): Promise<Client> {
  const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false }); // a free port on 127.0.0.1
  const own = new Client({ name: 'my-test', version: '1.0.0' }); // from '@modelcontextprotocol/client'
  await own.connect(new StreamableHTTPClientTransport(url!));
  return own;
}

export const middleware = [auditTrail];

// ---- Authorization ----

export class PayoutRequest {
  @IsInt() @Min(1) invoiceId!: number;
}

@ToolProvider({ scopes: ['billing:read'] }) // the default of every member of the class
export class PayoutTools {
  @Action('payouts.list', { description: 'List payouts' })
  list(@Ctx() ctx: CallContext) {
    return `payouts visible to ${ctx.auth?.subject ?? 'anyone (no token: stdio)'}`;
  }

  @Mutation('payouts.send', { description: 'Send a payout', scopes: ['billing:write'] })
  send(@Input() request: PayoutRequest) {
    return `sent for invoice ${request.invoiceId}`;
  }
}

@injectable()
export class PayoutAudit {
  constructor(@inject(CALL_AUTH) private readonly auth: CallerAuth | undefined) {}

  who(): string {
    return this.auth?.subject ?? 'local';
  }
}

export function protectedApp(): FusionApp {
  return FusionApp.create({
    tools: [PayoutTools],
    auth: {
      verifier: jwtVerifier({
        issuer: 'https://auth.example.com',
        audience: 'https://payouts.example.com/mcp',
        jwks: 'https://auth.example.com/.well-known/jwks.json'
      }),
      resource: 'https://payouts.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      listing: 'allowed' // tools/list shows each caller what its scopes allow
    }
  });
}

export const authDeclared = [PayoutAudit];

// ---- Tasks ----

export class ExportRequest {
  @IsInt() @Min(1) year!: number;
}

@ToolProvider()
export class ExportTools {
  @Action('ledger.export', { description: 'Export a year of the ledger', task: 'optional' })
  async *export(@Input() request: ExportRequest) {
    for (let month = 1; month <= 12; month++) {
      yield progress((month * 100) / 12, `month ${month} of 12`);
      await writeMonth(request.year, month);
    }
    return `exported ${request.year}`;
  }
}

async function writeMonth(year: number, month: number): Promise<void> {
  await Promise.resolve(`${year}-${month}`);
}

export function tasksApp(db: SqliteDatabase.Database): FusionApp {
  return FusionApp.create({
    tools: [ExportTools],
    tasks: { store: new SqliteTaskStore(db), ttlMs: 3_600_000, pollIntervalMs: 1_000, maxLiveTasks: 100 }
  });
}

export async function exportAsTask(app: FusionApp): Promise<string[]> {
  const statuses: string[] = [];
  await app.callTool('ledger.export', { year: 2025 }, { asTask: true, onTask: (task) => statuses.push(task.status) });
  return statuses; // ['working', …, 'completed']
}

// ---- Running several instances ----

export async function fleetApp(tools: Constructor[]): Promise<FusionApp> {
  const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  return FusionApp.create({
    tools,
    mutationLock: new RedisMutationLock(redis), // FIFO across instances, leases, fencing tokens
    bus: await RedisServerEventBus.create(redis), // list_changed and resources/updated reach every instance
    continuationStore: new RedisContinuationStore(redis, { key: process.env.FUSION_STATE_KEY! }),
    tasks: { store: new RedisTaskStore(redis) }, // tasks/get, update and cancel on any instance
    onClose: () => redis.close()
  });
}
