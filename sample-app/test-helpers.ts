import SqliteDatabase from 'better-sqlite3';
import type { FusionApp, HarnessInputAnswer, HarnessInputRequest } from '@mcpfusion/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBillingApp } from './app';

/** A fixed state key for tests (at least 32 bytes), so no app warns about a random one. */
export const TEST_STATE_KEY = 'billing-desk-test-state-key-of-32-bytes-or-more';

/** A fresh database location in a temp folder of its own, and its removal (WAL and SHM files included). */
export interface TempDb {
  readonly path: string;
  remove(): void;
}

/** A unique, not yet existing database file under the OS temp folder. */
export function tempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'billing-desk-'));
  return { path: join(dir, 'billing.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A connection of the test's own to the file: what it reads is what is committed on disk,
 * independently of the app's connections. `timeout: 0` makes a held write lock fail at
 * once instead of waiting.
 */
export function inspect(path: string): SqliteDatabase.Database {
  return new SqliteDatabase(path, { timeout: 0 });
}

/** What {@link useBillingApp} gives each test: the app, and the test's own connection to its file. */
export interface BillingAppFixture {
  /** The app of the current test, on a fresh (seeded) temp file, with {@link TEST_STATE_KEY}. */
  readonly app: FusionApp;
  /** The current test's own connection to the same file (see {@link inspect}). */
  readonly disk: SqliteDatabase.Database;
}

/**
 * Registers a `beforeEach` that opens a billing app on a new temp database file (plus a
 * connection of the test's own to it), and an `afterEach` that closes both and removes the
 * file. Call it at the top of a test file (or a `describe`); read `app` and `disk` only
 * inside tests and hooks, where they are the current test's.
 */
export function useBillingApp(): BillingAppFixture {
  let current: { temp: TempDb; app: FusionApp; disk: SqliteDatabase.Database } | undefined;

  beforeEach(() => {
    const temp = tempDb();
    const app = createBillingApp({ dbPath: temp.path, stateKey: TEST_STATE_KEY });
    current = { temp, app, disk: inspect(temp.path) };
  });

  afterEach(async () => {
    const ending = current;
    current = undefined;
    if (!ending) return;
    try {
      await ending.app.close();
    } finally {
      ending.disk.close();
      ending.temp.remove();
    }
  });

  const opened = (): NonNullable<typeof current> => {
    if (!current) throw new Error('useBillingApp: the app exists only while a test runs (from beforeEach to afterEach)');
    return current;
  };
  return {
    get app() {
      return opened().app;
    },
    get disk() {
      return opened().disk;
    }
  };
}

/** One invoice row as stored. */
export interface InvoiceRow {
  id: number;
  customer_id: number;
  amount_cents: number;
  currency: string;
  status: string;
  issued_on: string;
  refunded_at: string | null;
  internal_note: string | null;
}

/** The invoice row with this id, as stored. */
export function invoiceRow(db: SqliteDatabase.Database, id: number): InvoiceRow {
  return db.prepare('SELECT * FROM invoices WHERE id = ?').get(id) as InvoiceRow;
}

/** One aggregate row as stored. */
export interface AggregateRow {
  month: string;
  invoice_count: number;
  billed_cents: number;
  paid_cents: number;
  open_cents: number;
  refunded_cents: number;
  rebuilt_at: string;
}

/** The whole monthly_aggregates table, in month order. */
export function aggregates(db: SqliteDatabase.Database): AggregateRow[] {
  return db.prepare('SELECT * FROM monthly_aggregates ORDER BY month').all() as AggregateRow[];
}

/** Whether another connection could take the write lock right now. */
export function writeLockIsFree(db: SqliteDatabase.Database): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch {
    return false;
  }
}

/** The text blocks of a tool result, joined. */
export function textOf(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type: string; text?: string }>) : [];
  return blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}

/** Requests for input as a test saw them, and the `onInput` that records them. */
export interface QuestionLog {
  readonly asked: HarnessInputRequest[];
  readonly onInput: (request: HarnessInputRequest) => HarnessInputAnswer;
}

/** An `onInput` that records every request and answers it with `answer` (declining by default). */
export function recordQuestions(answer: (request: HarnessInputRequest) => HarnessInputAnswer = () => ({ action: 'decline' })): QuestionLog {
  const asked: HarnessInputRequest[] = [];
  return {
    asked,
    onInput: (request) => {
      asked.push(request);
      return answer(request);
    }
  };
}
