/**
 * Property-based fuzzer for the ANSWERS side of interactive calls: `billing.refund` and
 * `billing.adjust` over the raw 2026-07-28 wire (Multi Round-Trip Requests), on real HTTP.
 *
 * A hostile client sends answers without a state, answers of every wrong shape, answers under
 * prototype keys or the wrong key, answers for another round, and states that are tampered,
 * truncated, empty, minted by another tool, for other arguments or by another app, or replayed;
 * properly confirmed flows are mixed in. A model keeps the ledger the server must have written:
 * after every case the database (read through the test's own connection) holds EXACTLY the
 * refunds and adjustments that were confirmed properly. The same properties run on SQLite and on
 * PostgreSQL. No reply may leak a stack trace, none may
 * hang (each request has a deadline), and the server answers afterwards.
 *
 * Seeded: FUZZ_SEED=<n> replays a run (the default seed is fixed); a failure names the seed.
 */
import fc from 'fast-check';
import type { FusionApp } from '@mcpfusion/core';
import { createBillingApp } from './app';
import { describeOutcome, flipChar, leakIn, respell, WireClient, type WireOutcome } from './consent-fuzz-helpers';
import { PostgresDatabase } from './db/postgres-database';
import type { SqlRunner } from './db/sql-database';
import {
  eachDatabase,
  inspect,
  sqliteRunner,
  tempDb,
  TEST_STATE_KEY,
  usePostgres,
  type InvoiceRow,
  type PostgresFixture
} from './test-helpers';

const DEFAULT_SEED = 20260728;
const SEED = seedFromEnvironment();

/** Cases per property, on SQLite and on PostgreSQL alike (the same seed; PostgreSQL takes about 1.2x as long): a few hundred calls each, well under the time budget. */
const RUNS = { answers: 260, states: 160, replays: 90 } as const;

/** After the first failure, shrinking stops after this long (the smallest failure so far is reported). */
const SHRINK_BUDGET_MS = 8_000;

/** The key of an app the billing desk has never seen: its states are foreign. */
const FOREIGN_STATE_KEY = 'a-different-billing-desk-with-its-own-32-byte-key';

function seedFromEnvironment(): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === undefined || raw.trim() === '') return DEFAULT_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got "${raw}"`);
  return seed;
}

// ---------------------------------------------------------------------------------------------
// The desk under test, and the ledger it must hold
// ---------------------------------------------------------------------------------------------

/** A billing app listening on 127.0.0.1 (fresh database), and the test's own connection to that database. */
interface Desk {
  readonly app: FusionApp;
  readonly wire: WireClient;
  readonly sql: SqlRunner;
  close(): Promise<void>;
}

/** Where a desk's database is: a temp SQLite file, or a new database on the suite's PostgreSQL server. */
type DeskDatabase = { readonly engine: 'sqlite' } | { readonly engine: 'postgres'; readonly server: PostgresFixture };

async function openDesk(stateKey: string, where: DeskDatabase): Promise<Desk> {
  const opened = await openDatabase(where);
  let app: FusionApp | undefined;
  try {
    app = createBillingApp({ ...opened.forApp, stateKey });
    const { url } = await app.listen({ transport: 'http', port: 0, handleSignals: false });
    if (!url) throw new Error('listen() returned no URL');
    const own = app;
    return {
      app: own,
      wire: new WireClient(url),
      sql: opened.sql,
      close: async () => {
        try {
          await own.close();
        } finally {
          await opened.remove();
        }
      }
    };
  } catch (error) {
    try {
      await app?.close();
    } finally {
      await opened.remove();
    }
    throw error;
  }
}

/** A fresh database: what the app opens, the test's own connection to it, and their removal (after the app closed). */
async function openDatabase(where: DeskDatabase): Promise<{
  forApp: { dbPath: string } | { database: PostgresDatabase };
  sql: SqlRunner;
  remove(): Promise<void>;
}> {
  if (where.engine === 'sqlite') {
    const temp = tempDb();
    // The app creates and seeds the file; the test's connection opens it afterwards (on first read).
    let disk: ReturnType<typeof inspect> | undefined;
    const own = () => (disk ??= inspect(temp.path));
    return {
      forApp: { dbPath: temp.path },
      sql: {
        all: (sql, params) => sqliteRunner(own()).all(sql, params),
        get: (sql, params) => sqliteRunner(own()).get(sql, params),
        run: (sql, params) => sqliteRunner(own()).run(sql, params)
      },
      remove: async () => {
        disk?.close();
        temp.remove();
      }
    };
  }
  const created = await where.server.createDatabase();
  const database = await PostgresDatabase.open(created.url);
  const own = await PostgresDatabase.open(created.url);
  return {
    forApp: { database },
    sql: own,
    remove: async () => {
      try {
        await Promise.all([database.close(), own.close()]);
      } finally {
        await created.drop();
      }
    }
  };
}

/** An adjustment row as the model expects it (the idempotency key is the server's business). */
interface AdjustmentEntry {
  id: number;
  invoice_id: number;
  reason: string;
  amount_cents: number;
  created_at: string;
}

/** The ledger's columns of every invoice (the lock's bookkeeping, `fence`, is not the ledger: a refund sets it to its grant's token). */
function readInvoices(sql: SqlRunner): Promise<InvoiceRow[]> {
  return sql.all<InvoiceRow>(
    'SELECT id, customer_id, amount_cents, currency, status, issued_on, refunded_at, internal_note FROM invoices ORDER BY id'
  );
}

function readAdjustments(sql: SqlRunner): Promise<AdjustmentEntry[]> {
  return sql.all<AdjustmentEntry>('SELECT id, invoice_id, reason, amount_cents, created_at FROM adjustments ORDER BY id');
}

/**
 * What the ledger must be: the seeded invoices, changed only by the refunds that were confirmed
 * properly, and exactly the adjustments that were confirmed properly.
 */
class LedgerModel {
  private readonly seeded: ReadonlyMap<number, InvoiceRow>;
  private invoices: Map<number, InvoiceRow>;
  confirmedRefunds = 0;
  confirmedAdjustments = 0;

  private constructor(
    private readonly sql: SqlRunner,
    rows: InvoiceRow[],
    private adjustments: AdjustmentEntry[]
  ) {
    this.seeded = new Map(rows.map((row) => [row.id, { ...row }]));
    this.invoices = new Map(rows.map((row) => [row.id, { ...row }]));
  }

  /** The model of the ledger as it is now (the seeded one, on a fresh desk). */
  static async of(sql: SqlRunner): Promise<LedgerModel> {
    return new LedgerModel(sql, await readInvoices(sql), await readAdjustments(sql));
  }

  /** Invoices that can still be refunded or adjusted, by id. */
  open(): number[] {
    return [...this.invoices.values()].filter((row) => row.status !== 'refunded').map((row) => row.id);
  }

  totalCents(id: number): number {
    return this.invoices.get(id)!.amount_cents;
  }

  refunded(id: number, refundedAt: string): void {
    const row = this.invoices.get(id)!;
    if (row.status === 'refunded') throw new Error(`the model already has invoice ${id} refunded`);
    this.invoices.set(id, { ...row, status: 'refunded', refunded_at: refundedAt });
    this.confirmedRefunds++;
  }

  adjusted(entry: AdjustmentEntry): void {
    this.adjustments.push(entry);
    this.confirmedAdjustments++;
  }

  /**
   * Puts an invoice this fuzzer refunded back to its seeded state (through the test's own
   * connection, between cases), so that long runs never run out of refundable invoices.
   */
  async reopen(id: number): Promise<void> {
    const seed = this.seeded.get(id)!;
    await this.sql.run('UPDATE invoices SET status = @status, refunded_at = CAST(@refundedAt AS TEXT) WHERE id = @id', {
      status: seed.status,
      refundedAt: seed.refunded_at,
      id
    });
    this.invoices.set(id, { ...seed });
  }

  /** Invoices refunded by this run (not by the seed). */
  refundedByRun(): number[] {
    return [...this.invoices.values()]
      .filter((row) => row.status === 'refunded' && this.seeded.get(row.id)!.status !== 'refunded')
      .map((row) => row.id);
  }

  /**
   * The ledger on disk is exactly the model's. On a mismatch the model adopts what is on disk
   * (so that the cases fast-check runs while shrinking start from the truth) and the case fails.
   */
  async verify(): Promise<void> {
    const actual = { invoices: await readInvoices(this.sql), adjustments: await readAdjustments(this.sql) };
    const expected = { invoices: [...this.invoices.values()].sort((a, b) => a.id - b.id), adjustments: this.adjustments };
    try {
      expect(actual).toEqual(expected);
    } catch (error) {
      this.invoices = new Map(actual.invoices.map((row) => [row.id, row]));
      this.adjustments = actual.adjustments;
      throw new Error(
        `The ledger on disk is not the one confirmed properly (only confirmed refunds and adjustments may be written).\n${(error as Error).message}`
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One property run: the desk, the model, what was said on the wire
// ---------------------------------------------------------------------------------------------

type Stage = 'refund' | 'reason' | 'amount';
type Tool = 'billing.refund' | 'billing.adjust';
const REASONS = ['discount', 'billing-error', 'goodwill'] as const;
type Reason = (typeof REASONS)[number];
const REASON_TITLES: Record<Reason, string> = { discount: 'Discount', 'billing-error': 'Billing error', goodwill: 'Goodwill gesture' };
const TOOL_OF: Record<Stage, Tool> = { refund: 'billing.refund', reason: 'billing.adjust', amount: 'billing.adjust' };
const FIELD_OF: Record<Stage, string> = { refund: 'confirm', reason: 'reason', amount: 'amount' };
const CANCELLED: Record<Tool, string> = { 'billing.refund': 'Refund cancelled', 'billing.adjust': 'Adjustment cancelled' };
const INVALID_PREFIX = 'The previous answer was invalid';

/** A state that was presented once with a valid binding (so, under single-use, consumed). */
interface UsedState {
  readonly stage: Stage;
  readonly invoice: number;
  readonly key: string;
  readonly state: string;
  readonly reason?: Reason;
  /** The answers it was used with (the same ones again are the same round, re-issued). */
  readonly responses: string;
}

interface Run {
  readonly desk: Desk;
  readonly foreign: Desk;
  readonly model: LedgerModel;
  /** The first question of each stage per invoice, as first asked (deterministic). */
  readonly messages: Map<string, string>;
  readonly used: UsedState[];
  /** The key each first round is answered under (learnt from the server at the start). */
  readonly keys: Record<'refund' | 'reason', string>;
  trail: string[];
  firstFailureAt?: number;
}

/** A question the server asked: where the call stands, and the state to answer it with. */
interface Question {
  readonly desk: Desk;
  readonly stage: Stage;
  readonly invoice: number;
  readonly key: string;
  readonly state: string;
  /** The question without any note (as first asked). */
  readonly message: string;
  /** The amount round: the reason answered in round 1 (the one that must be recorded). */
  readonly reason?: Reason;
}

function short(state: unknown): string {
  return typeof state === 'string' && state.length > 24
    ? `${state.slice(0, 10)}…${state.slice(-6)} (${state.length} chars)`
    : JSON.stringify(state);
}

function fail(message: string): never {
  throw new Error(message);
}

/** One tools/call on `desk`; every reply is checked for leaks, crashes and unexpected error codes. */
async function call(
  run: Run,
  desk: Desk,
  tool: Tool,
  invoice: number,
  inputResponses?: unknown,
  requestState?: unknown
): Promise<WireOutcome> {
  run.trail.push(
    `→ ${desk === run.foreign ? '[foreign] ' : ''}${tool} {id:${invoice}}` +
      (inputResponses !== undefined ? ` inputResponses=${JSON.stringify(inputResponses).slice(0, 300)}` : '') +
      (requestState !== undefined ? ` requestState=${short(requestState)}` : '')
  );
  const outcome = await desk.wire.callTool({ name: tool, arguments: { id: invoice }, inputResponses, requestState });
  run.trail.push(`← ${describeOutcome(outcome)}`);
  const leak = leakIn(outcome.raw);
  if (leak) fail(`A reply ${leak}: ${outcome.raw.slice(0, 800)}`);
  if (outcome.status >= 500) fail(`HTTP ${outcome.status}: ${outcome.raw.slice(0, 500)}`);
  if (outcome.kind === 'error' && outcome.code !== -32602)
    fail(`Unexpected JSON-RPC error (only -32602 is expected): ${describeOutcome(outcome)}`);
  return outcome;
}

type Note = 'none' | 'any' | 'invalid';

/** The reply is the question of `stage` (one form, the one field), with a fresh state, its message as `note` says. */
function expectQuestion(
  run: Run,
  outcome: WireOutcome,
  desk: Desk,
  stage: Stage,
  invoice: number,
  note: Note,
  base: string | undefined,
  reason?: Reason
): Question {
  if (outcome.kind !== 'input_required') fail(`Expected the ${stage} question again (input_required), got ${describeOutcome(outcome)}`);
  const keys = Object.keys(outcome.inputRequests);
  if (keys.length !== 1) fail(`Expected one request for input, got ${keys.length}: ${outcome.raw.slice(0, 500)}`);
  const request = outcome.inputRequests[keys[0]];
  const fields = Object.keys(request?.params?.requestedSchema?.properties ?? {});
  if (request?.method !== 'elicitation/create' || fields.join(',') !== FIELD_OF[stage]) {
    fail(`Expected a form asking "${FIELD_OF[stage]}" (the ${stage} round), got ${outcome.raw.slice(0, 500)}`);
  }
  if (typeof outcome.requestState !== 'string' || outcome.requestState === '') fail('An input_required result without a requestState');
  const message = request.params.message;
  if (typeof message !== 'string') fail('A request for input without a message');
  const cacheKey = `${desk === run.foreign ? 'foreign:' : ''}${stage}:${invoice}:${reason ?? ''}`;
  const known = base ?? run.messages.get(cacheKey);
  switch (note) {
    case 'none':
      if (known !== undefined ? message !== known : message.startsWith('The previous answer')) {
        fail(`Expected the ${stage} question as first asked${known ? ` ("${known}")` : ''}, got "${message}"`);
      }
      break;
    case 'any':
      if (known !== undefined && !message.endsWith(known))
        fail(`Expected the ${stage} question ("${known}") asked again, got "${message}"`);
      break;
    case 'invalid':
      if (!message.startsWith(INVALID_PREFIX) || (known !== undefined && !message.endsWith(known))) {
        fail(`Expected the ${stage} question asked again with "${INVALID_PREFIX}…", got "${message}"`);
      }
      break;
  }
  if (stage === 'amount' && reason && !message.includes(`(${REASON_TITLES[reason]})`)) {
    fail(`The amount question should carry the reason answered in round 1 (${REASON_TITLES[reason]}): "${message}"`);
  }
  const plain = note === 'none' ? message : (known ?? message);
  if (note === 'none' && known === undefined) run.messages.set(cacheKey, message);
  return { desk, stage, invoice, key: keys[0], state: outcome.requestState, message: plain, reason };
}

function expectRejected(outcome: WireOutcome, why: string, message?: RegExp): void {
  if (outcome.kind !== 'error' || outcome.code !== -32602) fail(`Expected JSON-RPC -32602 (${why}), got ${describeOutcome(outcome)}`);
  if (message && !message.test(outcome.message)) fail(`Expected the -32602 message to match ${message} (${why}), got "${outcome.message}"`);
}

function expectCancelled(outcome: WireOutcome, tool: Tool): void {
  if (outcome.kind !== 'complete' || !outcome.isError || outcome.text !== CANCELLED[tool]) {
    fail(`Expected the error result "${CANCELLED[tool]}" (declined), got ${describeOutcome(outcome)}`);
  }
}

function expectRefused(outcome: WireOutcome): void {
  if (outcome.kind !== 'complete' || !outcome.isError || outcome.text !== CANCELLED['billing.refund']) {
    fail(`Expected the error result "Refund cancelled" (answered no), got ${describeOutcome(outcome)}`);
  }
}

/** A written refund: the reply says so, and the model records it. */
function expectRefund(run: Run, outcome: WireOutcome, invoice: number): void {
  const view =
    outcome.kind === 'complete' && !outcome.isError
      ? (outcome.structuredContent as { id?: unknown; status?: unknown; refundedAt?: unknown })
      : undefined;
  if (!view || view.id !== invoice || view.status !== 'refunded' || typeof view.refundedAt !== 'string') {
    fail(`Expected invoice ${invoice} refunded, got ${describeOutcome(outcome)}`);
  }
  run.model.refunded(invoice, view.refundedAt);
}

/** A written adjustment: the reply says so, with the reason of round 1 and the amount in cents, and the model records it. */
function expectAdjustment(run: Run, outcome: WireOutcome, invoice: number, reason: Reason, cents: number): void {
  const view =
    outcome.kind === 'complete' && !outcome.isError
      ? (outcome.structuredContent as { id?: unknown; invoiceId?: unknown; reason?: unknown; amountCents?: unknown; createdAt?: unknown })
      : undefined;
  if (
    !view ||
    view.invoiceId !== invoice ||
    view.reason !== reason ||
    view.amountCents !== cents ||
    typeof view.id !== 'number' ||
    typeof view.createdAt !== 'string'
  ) {
    fail(`Expected an adjustment of invoice ${invoice}: ${reason}, ${cents} cents; got ${describeOutcome(outcome)}`);
  }
  run.model.adjusted({ id: view.id, invoice_id: invoice, reason, amount_cents: cents, created_at: view.createdAt });
}

const accept = (content: unknown) => ({ action: 'accept', content });

/** The honest path to the question of `stage` on `invoice` (the reason round answered with `reason`). */
async function ask(run: Run, desk: Desk, stage: Stage, invoice: number, reason: Reason): Promise<Question> {
  const first = stage === 'refund' ? 'refund' : 'reason';
  const question = expectQuestion(run, await call(run, desk, TOOL_OF[first], invoice), desk, first, invoice, 'none', undefined);
  return stage === 'amount' ? answerReason(run, question, reason) : question;
}

async function answerReason(run: Run, question: Question, reason: Reason): Promise<Question> {
  const outcome = await send(run, question, { [question.key]: accept({ reason }) });
  return expectQuestion(run, outcome, question.desk, 'amount', question.invoice, 'none', undefined, reason);
}

/** Answers `question` with `responses` and `state` (its own by default). */
async function send(run: Run, question: Question, responses: unknown, state: unknown = question.state): Promise<WireOutcome> {
  const outcome = await call(run, question.desk, TOOL_OF[question.stage], question.invoice, responses, state);
  if (state === question.state && !(outcome.kind === 'error')) {
    run.used.push({
      stage: question.stage,
      invoice: question.invoice,
      key: question.key,
      state: question.state,
      reason: question.reason,
      responses: JSON.stringify(responses)
    });
  }
  return outcome;
}

/** A valid amount in cents for an invoice total: `frac` in [0, 1] spans 1 cent … the whole total. */
function centsFor(total: number, frac: number): number {
  return 1 + Math.floor(Math.min(Math.max(frac, 0), 1) * (total - 1));
}

/** The honest rest of the call from `question`: everything confirmed, written once. */
async function complete(run: Run, question: Question, choice: Choice): Promise<void> {
  switch (question.stage) {
    case 'refund':
      return expectRefund(run, await send(run, question, { [question.key]: accept({ confirm: true }) }), question.invoice);
    case 'reason':
      return complete(run, await answerReason(run, question, choice.reason), choice);
    case 'amount': {
      const cents = centsFor(run.model.totalCents(question.invoice), choice.frac);
      const outcome = await send(run, question, { [question.key]: accept({ amount: cents / 100 }) });
      return expectAdjustment(run, outcome, question.invoice, question.reason!, cents);
    }
  }
}

/** The answer a careful client gives to `question`. */
function perfect(run: Run, question: Question, choice: Choice): Record<string, unknown> {
  const content =
    question.stage === 'refund'
      ? { confirm: true }
      : question.stage === 'reason'
        ? { reason: choice.reason }
        : { amount: centsFor(run.model.totalCents(question.invoice), choice.frac) / 100 };
  return { [question.key]: accept(content) };
}

/** An open invoice (never one of `except`), reopening invoices this run refunded when few are left. */
async function pickInvoice(run: Run, n: number, except: readonly number[] = []): Promise<number> {
  let open = run.model.open().filter((id) => !except.includes(id));
  while (open.length < 3) {
    const refunded = run.model.refundedByRun();
    if (refunded.length === 0) throw new Error('no invoice left to fuzz with');
    await run.model.reopen(refunded[0]);
    open = run.model.open().filter((id) => !except.includes(id));
  }
  return open[n % open.length];
}

// ---------------------------------------------------------------------------------------------
// Generated answers: a small language, resolved against the question actually asked
// ---------------------------------------------------------------------------------------------

type Json = unknown;
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;
type ProtoKey = (typeof PROTO_KEYS)[number];
/** Keys of Object.prototype a careless server would call: an own key of that name must not break it. */
const BUILTIN_KEYS = ['hasOwnProperty', 'toString', 'valueOf', 'isPrototypeOf', '__defineGetter__'] as const;

interface Choice {
  readonly reason: Reason;
  /** Where in 1 cent … the invoice total the honest amount lies. */
  readonly frac: number;
}

/** A value for a field: valid for some field, a near miss, out of bounds, or junk. */
type ValueSpec =
  | { readonly t: 'valid' }
  | { readonly t: 'confirm'; readonly v: boolean }
  | { readonly t: 'reason'; readonly v: Reason }
  | { readonly t: 'amount'; readonly frac: number; readonly subCent: number }
  | {
      readonly t: 'amountOff';
      readonly k: 'zero' | 'negative' | 'above' | 'subMin' | 'huge' | 'asString' | 'asArray';
      readonly cents: number;
    }
  | { readonly t: 'near'; readonly i: number } // one of the field's NEAR_MISSES
  | { readonly t: 'json'; readonly v: Json };

/** A content key: the field asked, another round's field, a prototype or builtin key, or any. */
type KeySpec = { readonly t: 'own' } | { readonly t: 'field'; readonly stage: Stage } | { readonly t: 'literal'; readonly k: string };

/** `content` of an accepted answer. */
type ContentSpec =
  | { readonly t: 'absent' }
  | { readonly t: 'fields'; readonly fields: ReadonlyArray<readonly [KeySpec, ValueSpec]> }
  | { readonly t: 'wrapped'; readonly key: ProtoKey; readonly inner: ContentSpec } // {"__proto__": {...}}
  | { readonly t: 'notObject'; readonly v: Json };

/** The answer under the right key. */
type AnswerSpec =
  | { readonly t: 'accept'; readonly content: ContentSpec }
  | { readonly t: 'end'; readonly action: 'decline' | 'cancel'; readonly content: ContentSpec }
  | { readonly t: 'badAction'; readonly action: Json | undefined; readonly content: ContentSpec }
  | { readonly t: 'notAnswer'; readonly v: Json }
  | { readonly t: 'protoAnswer'; readonly key: ProtoKey; readonly action: 'accept' | 'decline' }; // {"__proto__": {action, content}}

/** Keys next to (or instead of) the right one, and what they carry. */
type OtherKey = { readonly t: 'field'; readonly stage: Stage } | { readonly t: 'literal'; readonly k: string };
type OtherValue = { readonly t: 'perfect' } | { readonly t: 'nested' } | { readonly t: 'json'; readonly v: Json };

/** Where a prototype key hides the perfect answer (see {@link AnswerBuilder.proto}). */
type ProtoShape = 'nestedKey' | 'nestedField' | 'direct' | 'deep' | 'answer' | 'content';

/** `inputResponses` as a whole. */
type ResponsesSpec =
  | { readonly t: 'notMap'; readonly v: Json }
  | { readonly t: 'proto'; readonly key: ProtoKey; readonly shape: ProtoShape }
  | { readonly t: 'wrongKey'; readonly key: OtherKey } // the perfect answer, under a key that was not asked
  | { readonly t: 'nearMiss'; readonly i: number } // accepted, with a near miss of the value (`confirm: "true"`)
  | { readonly t: 'otherRound'; readonly withOwn: boolean; readonly reason: Reason; readonly frac: number } // another round's fields
  | { readonly t: 'perfect'; readonly others: ReadonlyArray<readonly [OtherKey, OtherValue]> }
  | { readonly t: 'map'; readonly answer: AnswerSpec | undefined; readonly others: ReadonlyArray<readonly [OtherKey, OtherValue]> };

const jsonArb = fc.jsonValue({ maxDepth: 2 });
const nonObjectArb: fc.Arbitrary<Json> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(jsonArb, { maxLength: 3 })
);
const stageArb = fc.constantFrom<Stage>('refund', 'reason', 'amount');
const reasonArb = fc.constantFrom<Reason>(...REASONS);
const protoKeyArb = fc.constantFrom<ProtoKey>(...PROTO_KEYS);
const fracArb = fc.double({ min: 0, max: 1, noNaN: true });
const choiceArb: fc.Arbitrary<Choice> = fc.record({ reason: reasonArb, frac: fracArb });

/** Near misses of each field's values: what a sloppy or hostile client sends instead. */
const NEAR_MISSES: Record<Stage, readonly Json[]> = {
  refund: ['true', 'false', 'TRUE', 'yes', 'no', '1', '0', 1, 0, '', [true], [], {}, { value: true }, null],
  reason: [
    'Discount',
    'DISCOUNT',
    ' discount',
    'discount ',
    'billing_error',
    'billing error',
    'Billing error',
    'Goodwill gesture',
    'refund',
    '',
    'discount\u0000',
    ['discount'],
    { const: 'goodwill' },
    1,
    true,
    null
  ],
  amount: [
    '10',
    '0.01',
    '5.00',
    '',
    -0.01,
    0,
    -0,
    1e-9,
    0.009,
    0.0099999,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    true,
    [5],
    { amount: 5 },
    null
  ]
};

const valueArb: fc.Arbitrary<ValueSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<ValueSpec>({ t: 'valid' }) },
  { weight: 1, arbitrary: fc.boolean().map((v): ValueSpec => ({ t: 'confirm', v })) },
  { weight: 1, arbitrary: reasonArb.map((v): ValueSpec => ({ t: 'reason', v })) },
  {
    weight: 1,
    arbitrary: fc
      .record({ frac: fracArb, subCent: fc.constantFrom(0, 0, 0.001, 0.004, 0.0049) })
      .map((a): ValueSpec => ({ t: 'amount', ...a }))
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        k: fc.constantFrom('zero', 'negative', 'above', 'subMin', 'huge', 'asString', 'asArray' as const),
        cents: fc.integer({ min: 1, max: 10_000 })
      })
      .map((a): ValueSpec => ({ t: 'amountOff', ...a }))
  },
  { weight: 4, arbitrary: fc.nat().map((i): ValueSpec => ({ t: 'near', i })) },
  { weight: 2, arbitrary: jsonArb.map((v): ValueSpec => ({ t: 'json', v })) }
);

const literalKeyArb = fc.oneof(
  protoKeyArb,
  fc.constantFrom(...BUILTIN_KEYS),
  fc.constantFrom('action', 'content', 'input', 'Input', 'INPUT', ' input', 'input ', 'inputs', '', '0', 'confirm ', 'Reason', 'AMOUNT'),
  fc.string({ maxLength: 10 })
);
const contentKeyArb: fc.Arbitrary<KeySpec> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<KeySpec>({ t: 'own' }) },
  { weight: 2, arbitrary: stageArb.map((stage): KeySpec => ({ t: 'field', stage })) },
  { weight: 3, arbitrary: literalKeyArb.map((k): KeySpec => ({ t: 'literal', k })) }
);

const contentArb: fc.Arbitrary<ContentSpec> = fc.letrec<{ content: ContentSpec }>((tie) => ({
  content: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    {
      weight: 8,
      arbitrary: fc
        .array(fc.tuple(contentKeyArb, valueArb), { minLength: 0, maxLength: 4 })
        .map((fields): ContentSpec => ({ t: 'fields', fields }))
    },
    { weight: 1, arbitrary: fc.constant<ContentSpec>({ t: 'absent' }) },
    { weight: 1, arbitrary: fc.record({ key: protoKeyArb, inner: tie('content') }).map((a): ContentSpec => ({ t: 'wrapped', ...a })) },
    { weight: 1, arbitrary: nonObjectArb.map((v): ContentSpec => ({ t: 'notObject', v })) }
  )
})).content;

const badActionArb: fc.Arbitrary<Json | undefined> = fc
  .oneof(
    fc.constant(undefined),
    fc.constantFrom(
      'ACCEPT',
      'Accept',
      'accept ',
      ' accept',
      'accepted',
      'yes',
      'ok',
      'confirm',
      '',
      'Decline',
      'CANCEL',
      'reject',
      'approve'
    ),
    fc.string({ maxLength: 8 }),
    nonObjectArb,
    fc.constant({ action: 'accept' })
  )
  .filter((a) => a !== 'accept' && a !== 'decline' && a !== 'cancel');

const answerArb: fc.Arbitrary<AnswerSpec> = fc.oneof(
  { weight: 8, arbitrary: contentArb.map((content): AnswerSpec => ({ t: 'accept', content })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ action: fc.constantFrom('decline', 'cancel' as const), content: contentArb })
      .map((a): AnswerSpec => ({ t: 'end', ...a }))
  },
  { weight: 2, arbitrary: fc.record({ action: badActionArb, content: contentArb }).map((a): AnswerSpec => ({ t: 'badAction', ...a })) },
  { weight: 2, arbitrary: nonObjectArb.map((v): AnswerSpec => ({ t: 'notAnswer', v })) },
  {
    weight: 2,
    arbitrary: fc
      .record({ key: protoKeyArb, action: fc.constantFrom('accept', 'decline' as const) })
      .map((a): AnswerSpec => ({ t: 'protoAnswer', ...a }))
  }
);

const otherKeyArb: fc.Arbitrary<OtherKey> = fc.oneof(
  stageArb.map((stage): OtherKey => ({ t: 'field', stage })), // answers under the field's name instead of the request's key
  literalKeyArb.map((k): OtherKey => ({ t: 'literal', k }))
);
const otherValueArb: fc.Arbitrary<OtherValue> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<OtherValue>({ t: 'perfect' }) },
  { weight: 2, arbitrary: fc.constant<OtherValue>({ t: 'nested' }) },
  { weight: 1, arbitrary: jsonArb.map((v): OtherValue => ({ t: 'json', v })) }
);
const othersArb = fc.array(fc.tuple(otherKeyArb, otherValueArb), { maxLength: 3 });

const responsesArb: fc.Arbitrary<ResponsesSpec> = fc.oneof(
  { weight: 2, arbitrary: nonObjectArb.map((v): ResponsesSpec => ({ t: 'notMap', v })) },
  {
    weight: 4,
    arbitrary: fc
      .record({ key: protoKeyArb, shape: fc.constantFrom<ProtoShape>('nestedKey', 'nestedField', 'direct', 'deep', 'answer', 'content') })
      .map((a): ResponsesSpec => ({ t: 'proto', ...a }))
  },
  { weight: 2, arbitrary: otherKeyArb.map((key): ResponsesSpec => ({ t: 'wrongKey', key })) },
  { weight: 3, arbitrary: fc.nat().map((i): ResponsesSpec => ({ t: 'nearMiss', i })) },
  {
    weight: 3,
    arbitrary: fc.record({ withOwn: fc.boolean(), reason: reasonArb, frac: fracArb }).map((a): ResponsesSpec => ({ t: 'otherRound', ...a }))
  },
  { weight: 3, arbitrary: othersArb.map((others): ResponsesSpec => ({ t: 'perfect', others })) },
  { weight: 2, arbitrary: othersArb.filter((o) => o.length > 0).map((others): ResponsesSpec => ({ t: 'map', answer: undefined, others })) },
  { weight: 8, arbitrary: fc.record({ answer: answerArb, others: othersArb }).map((a): ResponsesSpec => ({ t: 'map', ...a })) }
);

/** What the server must do with an answer. */
type Verdict =
  | { readonly t: 'ask' } // nothing answered: the same question, as first asked
  | { readonly t: 'reask' } // an answer that is not one: asked again (a note allowed)
  | { readonly t: 'invalid' } // invalid content: asked again, "The previous answer was invalid: …"
  | { readonly t: 'cancelled' }
  | { readonly t: 'accepted'; readonly value: Json };

/** Builds the wire value of generated answers for `question`, and what the server must do with them. */
class AnswerBuilder {
  constructor(
    private readonly run: Run,
    private readonly question: Question,
    private readonly choice: Choice
  ) {}

  private total(): number {
    return this.run.model.totalCents(this.question.invoice);
  }

  private validFor(stage: Stage): Json {
    return stage === 'refund' ? true : stage === 'reason' ? this.choice.reason : centsFor(this.total(), this.choice.frac) / 100;
  }

  value(spec: ValueSpec, stage: Stage): Json {
    const total = this.total();
    switch (spec.t) {
      case 'valid':
        return this.validFor(stage);
      case 'confirm':
      case 'reason':
        return spec.v;
      case 'amount':
        return Math.min(centsFor(total, spec.frac) / 100 + spec.subCent, total / 100);
      case 'amountOff':
        return amountOff(spec, total);
      case 'near':
        return NEAR_MISSES[stage][spec.i % NEAR_MISSES[stage].length];
      case 'json':
        return spec.v;
    }
  }

  content(spec: ContentSpec): Json {
    switch (spec.t) {
      case 'absent':
        return undefined;
      case 'notObject':
        return spec.v;
      case 'wrapped':
        return Object.fromEntries([[spec.key, this.content(spec.inner) ?? {}]]); // an OWN "__proto__" key, as JSON.parse makes it
      case 'fields':
        return Object.fromEntries(
          spec.fields.map(([key, value]) => {
            const name = key.t === 'own' ? FIELD_OF[this.question.stage] : key.t === 'field' ? FIELD_OF[key.stage] : key.k;
            const fieldStage = key.t === 'field' ? key.stage : this.question.stage;
            return [name, this.value(value, fieldStage)];
          })
        );
    }
  }

  private answer(spec: AnswerSpec): Json {
    switch (spec.t) {
      case 'accept':
        return withContent({ action: 'accept' }, this.content(spec.content));
      case 'end':
        return withContent({ action: spec.action }, this.content(spec.content));
      case 'badAction':
        return withContent(spec.action === undefined ? {} : { action: spec.action }, this.content(spec.content));
      case 'notAnswer':
        return spec.v;
      case 'protoAnswer':
        return Object.fromEntries([
          [spec.key, { action: spec.action, content: { [FIELD_OF[this.question.stage]]: this.validFor(this.question.stage) } }]
        ]);
    }
  }

  private others(others: ReadonlyArray<readonly [OtherKey, OtherValue]>): Array<[string, Json]> {
    const perfectAnswer = perfect(this.run, this.question, this.choice)[this.question.key];
    return others
      .map(([key, value]): [string, Json] => [
        key.t === 'field' ? FIELD_OF[key.stage] : key.k,
        value.t === 'perfect' ? perfectAnswer : value.t === 'nested' ? { [this.question.key]: perfectAnswer } : value.v
      ])
      .filter(([key]) => key !== this.question.key);
  }

  /**
   * The perfect answer behind a prototype key, built as JSON.parse builds it (an OWN key named
   * `__proto__`): a server that copies the map with assignments, or reads through prototypes,
   * would find the answer there.
   */
  private proto(key: ProtoKey, shape: ProtoShape): Json {
    const right = this.question.key;
    const field = FIELD_OF[this.question.stage];
    const answer = perfect(this.run, this.question, this.choice)[right] as { content: Record<string, Json> };
    const hide = (value: Json): Json => Object.fromEntries([[key, value]]);
    switch (shape) {
      case 'nestedKey':
        return hide({ [right]: answer }); // {"__proto__":{"input":{"action":"accept","content":{…}}}}
      case 'nestedField':
        return hide({ [field]: answer }); // {"__proto__":{"confirm":{"action":"accept","content":{"confirm":true}}}}
      case 'direct':
        return hide(answer);
      case 'deep':
        return hide(hide({ [right]: answer }));
      case 'answer':
        return { [right]: hide(answer) };
      case 'content':
        return { [right]: { action: 'accept', content: hide(answer.content) } };
    }
  }

  /**
   * Content for another round: the round-2 amount sent to the reason question, the round-1
   * reason (a different one) sent to the amount question; with `withOwn`, next to a valid answer
   * to the question asked (then only that answer counts: a reason cannot be changed in round 2,
   * an amount cannot be given before it is asked).
   */
  private otherRound(spec: Extract<ResponsesSpec, { t: 'otherRound' }>): Record<string, Json> {
    const amount = centsFor(this.total(), spec.frac) / 100;
    const own = perfect(this.run, this.question, this.choice)[this.question.key] as { content: Record<string, Json> };
    const other: Record<string, Json> =
      this.question.stage === 'refund'
        ? { reason: spec.reason, amount }
        : this.question.stage === 'reason'
          ? { amount }
          : { reason: otherReason(this.question.reason ?? spec.reason) };
    return spec.withOwn ? { ...other, ...own.content } : other;
  }

  /** The `inputResponses` to send. */
  responses(spec: ResponsesSpec): Json {
    switch (spec.t) {
      case 'notMap':
        return spec.v;
      case 'proto':
        return this.proto(spec.key, spec.shape);
      case 'nearMiss':
        return {
          [this.question.key]: accept({ [FIELD_OF[this.question.stage]]: this.value({ t: 'near', i: spec.i }, this.question.stage) })
        };
      case 'wrongKey':
        return Object.fromEntries(this.others([[spec.key, { t: 'perfect' }]]));
      case 'otherRound':
        return { [this.question.key]: accept(this.otherRound(spec)) };
      case 'perfect':
        return Object.fromEntries([
          ...this.others(spec.others),
          [this.question.key, perfect(this.run, this.question, this.choice)[this.question.key]]
        ]);
      case 'map':
        return Object.fromEntries([
          ...this.others(spec.others),
          ...(spec.answer ? [[this.question.key, this.answer(spec.answer)] as [string, Json]] : [])
        ]);
    }
  }

  /**
   * What a correct server does with `wire` (the responses as the server receives them, after
   * the JSON round trip): reads the answer under the request's own key only, by own property;
   * an answer is accepted when its content holds a valid value for the field asked (extra fields
   * are ignored: only declared fields count).
   */
  verdict(wire: Json): Verdict {
    const answer = own(wire, this.question.key);
    if (answer === undefined || answer === null) return { t: 'ask' };
    if (typeof answer !== 'object' || Array.isArray(answer)) return { t: 'reask' };
    const action = own(answer, 'action');
    if (action === 'decline' || action === 'cancel') return { t: 'cancelled' };
    if (action !== 'accept') return { t: 'reask' };
    const content = own(answer, 'content') ?? {};
    if (typeof content !== 'object' || content === null || Array.isArray(content)) return { t: 'invalid' };
    const value = own(content, FIELD_OF[this.question.stage]);
    return isValid(this.question.stage, value, this.total()) ? { t: 'accepted', value } : { t: 'invalid' };
  }
}

/** An amount outside what the amount field allows (or of the wrong type). */
function amountOff(spec: Extract<ValueSpec, { t: 'amountOff' }>, total: number): Json {
  const inside = centsFor(total, 0.5) / 100;
  switch (spec.k) {
    case 'zero':
      return 0;
    case 'negative':
      return -spec.cents / 100;
    case 'above':
      return (total + spec.cents) / 100;
    case 'subMin':
      return (spec.cents % 99) / 10_000; // below 0.01
    case 'huge':
      return 1e300;
    case 'asString':
      return String(inside);
    case 'asArray':
      return [inside];
  }
}

function withContent(answer: Record<string, Json>, content: Json): Json {
  return content === undefined ? answer : { ...answer, content };
}

/** An own property (never one reached through a prototype). */
function own(map: Json, key: string): Json {
  return typeof map === 'object' && map !== null && Object.prototype.hasOwnProperty.call(map, key)
    ? (map as Record<string, Json>)[key]
    : undefined;
}

/** The fields as the sample app declares them: a boolean; one of three reasons; dollars in [0.01, total]. */
function isValid(stage: Stage, value: Json, totalCents: number): boolean {
  switch (stage) {
    case 'refund':
      return typeof value === 'boolean';
    case 'reason':
      return typeof value === 'string' && (REASONS as readonly string[]).includes(value);
    case 'amount':
      return typeof value === 'number' && Number.isFinite(value) && value >= 0.01 && value <= totalCents / 100;
  }
}

/** The value as the server receives it. */
function overTheWire(value: Json): Json {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

interface AnswerCase {
  readonly stage: Stage;
  readonly pick: number;
  /** Sent with the first call, without a state (so: ignored). */
  readonly upfront: boolean;
  readonly responses: ResponsesSpec;
  readonly thenConfirm: boolean;
  readonly choice: Choice;
}

const answerCaseArb: fc.Arbitrary<AnswerCase> = fc.record({
  stage: stageArb,
  pick: fc.nat(),
  upfront: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  responses: responsesArb,
  thenConfirm: fc.boolean(),
  choice: choiceArb
});

/** Answers of any shape: up front (ignored), or with a valid state (read against what was asked). */
async function answerCase(run: Run, c: AnswerCase): Promise<void> {
  const invoice = await pickInvoice(run, c.pick);
  const { desk } = run;
  if (c.upfront) {
    // No state: whatever is sent, even the perfect answer, is not an answer to anything yet.
    const stage: Stage = c.stage === 'refund' ? 'refund' : 'reason';
    const target: Question = { desk, stage, invoice, key: run.keys[stage], state: '', message: '' };
    const responses = new AnswerBuilder(run, target, c.choice).responses(c.responses);
    const outcome = await call(run, desk, TOOL_OF[stage], invoice, responses);
    if (outcome.kind === 'error' && c.responses.t === 'notMap') {
      expectRejected(outcome, 'inputResponses that are not a map');
      if (c.thenConfirm) await complete(run, await ask(run, desk, stage, invoice, c.choice.reason), c.choice);
      return;
    }
    const question = expectQuestion(run, outcome, desk, stage, invoice, 'none', undefined);
    if (c.thenConfirm) await complete(run, question, c.choice);
    return;
  }

  const question = await ask(run, desk, c.stage, invoice, c.choice.reason);
  const builder = new AnswerBuilder(run, question, c.choice);
  const responses = builder.responses(c.responses);
  const verdict = builder.verdict(overTheWire(responses));
  const outcome = await send(run, question, responses);
  const tool = TOOL_OF[question.stage];
  let next: Question | undefined;
  switch (verdict.t) {
    case 'ask':
      if (outcome.kind === 'error' && c.responses.t === 'notMap') {
        expectRejected(outcome, 'inputResponses that are not a map');
        next = question; // refused before anything was read: the state is still unused
      } else {
        next = expectQuestion(run, outcome, desk, question.stage, invoice, 'none', question.message, question.reason);
      }
      break;
    case 'reask':
      next = expectQuestion(run, outcome, desk, question.stage, invoice, 'any', question.message, question.reason);
      break;
    case 'invalid':
      next = expectQuestion(run, outcome, desk, question.stage, invoice, 'invalid', question.message, question.reason);
      break;
    case 'cancelled':
      expectCancelled(outcome, tool);
      break;
    case 'accepted':
      if (question.stage === 'refund') {
        if (verdict.value === true) expectRefund(run, outcome, invoice);
        else expectRefused(outcome);
      } else if (question.stage === 'reason') {
        // Only the reason is kept: an amount sent along with it is not an answer to a question not yet asked.
        const amount = expectQuestion(run, outcome, desk, 'amount', invoice, 'none', undefined, verdict.value as Reason);
        if (c.thenConfirm) await complete(run, amount, c.choice);
      } else {
        expectAdjustment(run, outcome, invoice, question.reason!, Math.round((verdict.value as number) * 100));
      }
      break;
  }
  if (next && c.thenConfirm) await complete(run, next, c.choice);
}

type StateAttack =
  | { readonly t: 'flip'; readonly at: number; readonly bit: 0 | 1 }
  | { readonly t: 'truncate'; readonly keep: number }
  | { readonly t: 'empty' }
  | { readonly t: 'junk'; readonly v: Json }
  | { readonly t: 'forged'; readonly edit: 'answers' | 'round' | 'tool' | 'args' | 'expiry' | 'caller' }
  | { readonly t: 'spliced' }
  | { readonly t: 'otherTool'; readonly stage: Stage }
  | { readonly t: 'otherArgs'; readonly pick: number }
  | { readonly t: 'foreign' };

interface StateCase {
  readonly stage: Stage;
  readonly pick: number;
  readonly attack: StateAttack;
  readonly answers: 'perfect' | 'none';
  readonly thenConfirm: boolean;
  readonly choice: Choice;
}

const stateAttackArb: fc.Arbitrary<StateAttack> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({ at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), bit: fc.constantFrom<0 | 1>(0, 1) })
      .map((a): StateAttack => ({ t: 'flip', ...a }))
  },
  {
    weight: 2,
    arbitrary: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }).map((keep): StateAttack => ({ t: 'truncate', keep }))
  },
  { weight: 1, arbitrary: fc.constant<StateAttack>({ t: 'empty' }) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(
        jsonArb,
        fc.string({ maxLength: 40 }).map((s) => `v1.${s}`)
      )
      .map((v): StateAttack => ({ t: 'junk', v }))
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('answers', 'round', 'tool', 'args', 'expiry', 'caller' as const)
      .map((edit): StateAttack => ({ t: 'forged', edit }))
  },
  { weight: 1, arbitrary: fc.constant<StateAttack>({ t: 'spliced' }) },
  { weight: 2, arbitrary: stageArb.map((stage): StateAttack => ({ t: 'otherTool', stage })) },
  { weight: 2, arbitrary: fc.nat().map((pick): StateAttack => ({ t: 'otherArgs', pick })) },
  { weight: 2, arbitrary: fc.constant<StateAttack>({ t: 'foreign' }) }
);

const stateCaseArb: fc.Arbitrary<StateCase> = fc.record({
  stage: stageArb,
  pick: fc.nat(),
  attack: stateAttackArb,
  answers: fc.oneof({ weight: 4, arbitrary: fc.constant('perfect' as const) }, { weight: 1, arbitrary: fc.constant('none' as const) }),
  thenConfirm: fc.boolean(),
  choice: choiceArb
});

/** The body of a state re-encoded with `edit` applied, under its old MAC. */
function forgeBody(state: string, edit: Extract<StateAttack, { t: 'forged' }>['edit']): string {
  const [version, body, mac] = [state.slice(0, 2), state.slice(3, state.lastIndexOf('.')), state.slice(state.lastIndexOf('.') + 1)];
  const envelope = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: Record<string, unknown>; exp: number };
  const payload = envelope.p ?? {};
  switch (edit) {
    case 'answers':
      payload.a = { confirm: true, reason: 'goodwill', amount: 0.01 }; // claim answers never given
      break;
    case 'round':
      payload.r = 0;
      break;
    case 'tool':
      payload.t = payload.t === 'billing.refund' ? 'billing.adjust' : 'billing.refund';
      break;
    case 'args':
      payload.d = 'x'.repeat(43);
      break;
    case 'expiry':
      envelope.exp += 86_400;
      break;
    case 'caller':
      payload.p = 'someone-else';
      break;
  }
  const forged = Buffer.from(JSON.stringify({ ...envelope, p: payload })).toString('base64url');
  return `${version}.${forged === body ? `${forged}A` : forged}.${mac}`;
}

/** A state that is not the one the server issued for `question`'s call. */
async function forge(run: Run, attack: StateAttack, question: Question, choice: Choice): Promise<Json> {
  const state = question.state;
  switch (attack.t) {
    case 'flip':
      return flipChar(state, Math.floor(attack.at * state.length), attack.bit);
    case 'truncate':
      return state.slice(0, Math.floor(attack.keep * state.length));
    case 'empty':
      return '';
    case 'junk':
      return attack.v;
    case 'forged':
      return forgeBody(state, attack.edit);
    case 'spliced': {
      // This call's body under the MAC of another genuine state (of the other tool, same invoice).
      const other = await ask(run, run.desk, question.stage === 'refund' ? 'reason' : 'refund', question.invoice, choice.reason);
      return `${state.slice(0, state.lastIndexOf('.'))}${other.state.slice(other.state.lastIndexOf('.'))}`;
    }
    case 'otherTool': {
      const stage: Stage = question.stage === 'refund' ? (attack.stage === 'refund' ? 'reason' : attack.stage) : 'refund';
      return (await ask(run, run.desk, stage, question.invoice, choice.reason)).state;
    }
    case 'otherArgs': {
      const other = await pickInvoice(run, attack.pick, [question.invoice]);
      return (await ask(run, run.desk, question.stage, other, choice.reason)).state;
    }
    case 'foreign':
      return (await ask(run, run.foreign, question.stage, question.invoice, choice.reason)).state;
  }
}

/** States the server did not issue for this very call are refused (-32602) before anything is read or written. */
async function stateCase(run: Run, c: StateCase): Promise<void> {
  const invoice = await pickInvoice(run, c.pick);
  const question = await ask(run, run.desk, c.stage, invoice, c.choice.reason);
  const forged = await forge(run, c.attack, question, c.choice);
  if (forged === question.state) return; // the attack happened to produce the genuine state (cannot, but never count it)
  const responses = c.answers === 'perfect' ? perfect(run, question, c.choice) : undefined;
  expectRejected(await send(run, question, responses, forged), `requestState attack "${c.attack.t}"`);
  await run.model.verify();
  // The genuine state was not used by the refused attempt: the honest client still finishes.
  if (c.thenConfirm) await complete(run, question, c.choice);
}

interface ReplayCase {
  readonly stage: Stage;
  readonly pick: number;
  /** How the state is used first: answered and accepted, answered invalidly (asked again), declined, or answered "no". */
  readonly use: 'accepted' | 'invalid' | 'declined' | 'refused';
  readonly respelled: boolean;
  readonly replayWith: 'same' | 'perfect';
  /** Also replay a state used in an earlier case of this run. */
  readonly older: number | null;
  readonly choice: Choice;
}

const replayCaseArb: fc.Arbitrary<ReplayCase> = fc.record({
  stage: stageArb,
  pick: fc.nat(),
  use: fc.constantFrom('accepted', 'accepted', 'invalid', 'declined', 'refused' as const),
  respelled: fc.boolean(),
  replayWith: fc.constantFrom('same', 'perfect' as const),
  older: fc.option(fc.nat(), { nil: null }),
  choice: choiceArb
});

const ALREADY_USED = /already used/i;

/**
 * A state is honoured once: a second presentation with other answers is refused (-32602,
 * "already used"); the same round re-issued gets the first answer again (exactly once). Neither writes anything.
 */
async function replayCase(run: Run, c: ReplayCase): Promise<void> {
  const invoice = await pickInvoice(run, c.pick);
  const question = await ask(run, run.desk, c.stage, invoice, c.choice.reason);
  const tool = TOOL_OF[question.stage];
  let first: Record<string, unknown>;
  let firstOutcome: WireOutcome | undefined;
  let resume: Question | undefined;
  // The first presentation of the state: its answer is kept (an identical re-issue gets it again).
  const sendFirst = async (responses: Record<string, unknown>): Promise<WireOutcome> =>
    (firstOutcome = await send(run, question, responses));
  const use = c.use === 'refused' && question.stage !== 'refund' ? 'accepted' : c.use;
  switch (use) {
    case 'accepted': {
      first = perfect(run, question, c.choice);
      const outcome = await sendFirst(first);
      if (question.stage === 'refund') expectRefund(run, outcome, invoice);
      else if (question.stage === 'amount')
        expectAdjustment(run, outcome, invoice, question.reason!, centsFor(run.model.totalCents(invoice), c.choice.frac));
      else resume = expectQuestion(run, outcome, run.desk, 'amount', invoice, 'none', undefined, c.choice.reason);
      break;
    }
    case 'invalid':
      first = { [question.key]: accept({ [FIELD_OF[question.stage]]: 'not-a-valid-value' }) };
      resume = expectQuestion(run, await sendFirst(first), run.desk, question.stage, invoice, 'invalid', question.message, question.reason);
      break;
    case 'declined':
      first = { [question.key]: { action: 'decline' } };
      expectCancelled(await sendFirst(first), tool);
      break;
    case 'refused':
      first = { [question.key]: accept({ confirm: false }) };
      expectRefused(await sendFirst(first));
      break;
  }
  await run.model.verify();

  const token = c.respelled ? (respell(question.state) ?? question.state) : question.state;
  const again = c.replayWith === 'same' ? first : perfect(run, question, { ...c.choice, reason: otherReason(c.choice.reason) });
  const replayed = await send(run, question, again, token);
  if (JSON.stringify(again) === JSON.stringify(first)) {
    // The same round re-issued (exactly-once tools: a client whose stream broke sends it again):
    // the first attempt's answer, and nothing written again.
    if (describeOutcome(replayed) !== describeOutcome(firstOutcome!)) {
      fail(
        `Expected the re-issued round (${use}) to get the first answer ${describeOutcome(firstOutcome!)}, got ${describeOutcome(replayed)}`
      );
    }
  } else
    expectRejected(replayed, `replay of a state used once with other answers (${use}${c.respelled ? ', respelled' : ''})`, ALREADY_USED);
  await run.model.verify();

  if (c.older !== null && run.used.length > 0) {
    const older = run.used[c.older % run.used.length];
    const stale: Question = {
      desk: run.desk,
      stage: older.stage,
      invoice: older.invoice,
      key: older.key,
      state: older.state,
      message: '',
      reason: older.reason
    };
    const answers = perfect(run, stale, c.choice);
    const replayed = await send(run, stale, answers);
    // The same answers are the same round re-issued (its first answer, written once); others are a replay.
    if (JSON.stringify(answers) !== older.responses) expectRejected(replayed, 'replay of a state used in an earlier case', ALREADY_USED);
    await run.model.verify();
  }
  // What the first use led to still works (a replay burns nothing else).
  if (resume) await complete(run, resume, c.choice);
}

function otherReason(reason: Reason): Reason {
  return REASONS[(REASONS.indexOf(reason) + 1) % REASONS.length];
}

// ---------------------------------------------------------------------------------------------
// Running a property: one desk per property, the ledger checked after every case
// ---------------------------------------------------------------------------------------------

/** Where a property runs: the database of its desks, and the foreign desk (and its ledger) of that database. */
interface Bench {
  readonly where: DeskDatabase;
  readonly foreign: Desk;
  readonly foreignLedger: LedgerModel;
}

async function fuzz<T>(
  bench: Bench,
  name: string,
  arbitrary: fc.Arbitrary<T>,
  numRuns: number,
  body: (run: Run, value: T) => Promise<void>
): Promise<Run> {
  const desk = await openDesk(TEST_STATE_KEY, bench.where);
  let model: LedgerModel;
  try {
    model = await LedgerModel.of(desk.sql);
  } catch (error) {
    await desk.close();
    throw error;
  }
  const run: Run = {
    desk,
    foreign: bench.foreign,
    model,
    messages: new Map(),
    used: [],
    keys: { refund: '', reason: '' },
    trail: []
  };
  try {
    for (const stage of ['refund', 'reason'] as const) run.keys[stage] = (await ask(run, desk, stage, run.model.open()[0], 'discount')).key;
    const property = fc.asyncProperty(arbitrary, async (value) => {
      // While shrinking past the budget, candidates pass: the smallest failure so far is reported.
      if (run.firstFailureAt !== undefined && Date.now() - run.firstFailureAt > SHRINK_BUDGET_MS) return;
      run.trail = [];
      try {
        await body(run, value);
        await run.model.verify();
      } catch (error) {
        run.firstFailureAt ??= Date.now();
        let message = (error as Error).message;
        try {
          await run.model.verify(); // and, on a mismatch, start the next case from what is on disk
        } catch (ledger) {
          if (!message.startsWith('The ledger')) message += `\n${(ledger as Error).message}`;
        }
        throw new Error(`${message}\n--- this case on the wire ---\n${run.trail.map((line) => line.slice(0, 600)).join('\n')}`);
      }
    });
    try {
      await fc.assert(property, { seed: SEED, numRuns, includeErrorInReport: true });
    } catch (error) {
      throw new Error(
        `${name}: failed on ${bench.where.engine} with FUZZ_SEED=${SEED} (replay: FUZZ_SEED=${SEED} npx jest sample-app/consent.fuzz)\n${(error as Error).message}`
      );
    }
    // Afterwards: the ledger is exactly the confirmed one, and the server still answers.
    await run.model.verify();
    await bench.foreignLedger.verify();
    const still = await call(run, desk, 'billing.refund', run.model.open()[0]);
    expect(still.kind).toBe('input_required');
    const lookup = await desk.wire.callTool({ name: 'billing.list', arguments: { limit: 1 } });
    expect(lookup).toMatchObject({ kind: 'complete', isError: false });
    for (const reply of desk.wire.replies) expect(leakIn(reply.raw)).toBeUndefined();
    return run;
  } finally {
    await desk.close();
  }
}

describe('consent fuzzer: the attack texts', () => {
  // Pure JSON and string checks: no desk, no database.
  test('the attack texts keep their prototype keys as own keys on the wire', () => {
    const text = '{"__proto__":{"input":{"action":"accept","content":{"confirm":true}}},"constructor":{"prototype":{}}}';
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
    expect(JSON.stringify(Object.fromEntries([['__proto__', { confirm: true }]]))).toBe('{"__proto__":{"confirm":true}}');
    expect(flipChar('v1.AAAA.BBBB', 5, 0)).not.toBe('v1.AAAA.BBBB');
    expect(respell('v1.x.' + 'A'.repeat(43))).toBe('v1.x.' + 'A'.repeat(42) + 'D');
  });
});

eachDatabase('consent fuzzer: billing.refund and billing.adjust over raw 2026-07-28 HTTP', (database) => {
  let bench: Bench;

  // Jest runs afterAll hooks in the order they are declared: the foreign desk closes before the server stops.
  afterAll(async () => {
    await bench?.foreign.close();
  });
  const server = database === 'postgres' ? usePostgres() : undefined;

  beforeAll(async () => {
    const where: DeskDatabase = server ? { engine: 'postgres', server } : { engine: 'sqlite' };
    // The foreign desk only mints states: nothing is ever confirmed there.
    const foreign = await openDesk(FOREIGN_STATE_KEY, where);
    bench = { where, foreign, foreignLedger: await LedgerModel.of(foreign.sql) };
  }, 30_000);

  test('answers without a state are ignored, and answers of any shape with a valid state write only what was confirmed', async () => {
    const run = await fuzz(bench, 'answers', answerCaseArb, RUNS.answers, answerCase);
    // The generator is not degenerate: confirmed flows happened in both tools.
    expect(run.model.confirmedRefunds).toBeGreaterThan(5);
    expect(run.model.confirmedAdjustments).toBeGreaterThan(5);
  }, 60_000);

  test('tampered, truncated, empty, foreign, other-tool and other-argument states are refused with -32602 and write nothing', async () => {
    const run = await fuzz(bench, 'states', stateCaseArb, RUNS.states, stateCase);
    expect(run.model.confirmedRefunds + run.model.confirmedAdjustments).toBeGreaterThan(10);
  }, 60_000);

  test('a state is honoured once: replayed with other answers (also respelled, also much later) it is refused with -32602; the same round re-issued gets its first answer; neither writes anything', async () => {
    await fuzz(bench, 'replays', replayCaseArb, RUNS.replays, replayCase);
  }, 60_000);
});
