import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database, DEFAULT_DB_PATH } from './db/database';
import { SEED_CUSTOMERS, SEED_INVOICE_COUNT } from './db/seed';
import { tempDb, type TempDb } from './test-helpers';

let temp: TempDb;
const opened: Database[] = [];

function open(path?: string): Database {
  const db = new Database(path);
  opened.push(db);
  return db;
}

beforeEach(() => {
  temp = tempDb();
});

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  temp.remove();
});

function dump(db: Database): unknown {
  return {
    customers: db.connection.prepare('SELECT * FROM customers ORDER BY id').all(),
    invoices: db.connection.prepare('SELECT * FROM invoices ORDER BY id').all()
  };
}

test('a new file gets the schema, WAL mode and the demo data', () => {
  const db = open(temp.path);
  expect(db.connection.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(db.connection.prepare('SELECT COUNT(*) FROM customers').pluck().get()).toBe(SEED_CUSTOMERS.length);
  expect(db.connection.prepare('SELECT COUNT(*) FROM invoices').pluck().get()).toBe(SEED_INVOICE_COUNT);
  const span = db.connection.prepare('SELECT MIN(issued_on) AS first, MAX(issued_on) AS last FROM invoices').get();
  expect(span).toEqual({ first: expect.stringMatching(/^2025-01/), last: expect.stringMatching(/^2026-12/) });
  const statuses = db.connection.prepare('SELECT DISTINCT status FROM invoices ORDER BY status').pluck().all();
  expect(statuses).toEqual(['open', 'paid', 'refunded']);
});

test('the demo data is the same every time (no randomness, no clock)', () => {
  const other = tempDb();
  try {
    const a = open(temp.path);
    const b = open(other.path);
    expect(dump(a)).toEqual(dump(b));
  } finally {
    other.remove();
  }
});

test('reopening an existing file seeds nothing and keeps changes', () => {
  const first = open(temp.path);
  first.connection.prepare("UPDATE invoices SET status = 'refunded', refunded_at = '2026-01-01T00:00:00.000Z' WHERE id = 2").run();
  first.close();
  const again = open(temp.path);
  expect(again.connection.prepare('SELECT COUNT(*) FROM invoices').pluck().get()).toBe(SEED_INVOICE_COUNT);
  expect(again.connection.prepare('SELECT status FROM invoices WHERE id = 2').pluck().get()).toBe('refunded');
});

test('a file from before adjustments and connected accounts gets those tables on open, data kept', () => {
  const old = open(temp.path);
  old.connection.exec('DROP TABLE adjustments; DROP TABLE connected_accounts;');
  old.connection.prepare("UPDATE invoices SET status = 'refunded', refunded_at = '2026-01-01T00:00:00.000Z' WHERE id = 2").run();
  old.close();
  const again = open(temp.path);
  const tables = again.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
  expect(tables).toEqual(['adjustments', 'connected_accounts', 'customers', 'invoices', 'monthly_aggregates']);
  expect(again.connection.prepare('SELECT COUNT(*) FROM adjustments').pluck().get()).toBe(0);
  expect(again.connection.prepare('SELECT status FROM invoices WHERE id = 2').pluck().get()).toBe('refunded');
});

test('the schema refuses a refunded invoice without its refund time, and an unknown status', () => {
  const db = open(temp.path);
  expect(() => db.connection.prepare("UPDATE invoices SET status = 'refunded', refunded_at = NULL WHERE id = 1").run()).toThrow(
    /CHECK constraint/
  );
  expect(() => db.connection.prepare("UPDATE invoices SET status = 'void' WHERE id = 1").run()).toThrow(/CHECK constraint/);
});

test('BILLING_DB chooses the file when no path is given', () => {
  const previous = process.env.BILLING_DB;
  process.env.BILLING_DB = temp.path;
  try {
    const db = open();
    expect(db.location).toBe(temp.path);
    expect(existsSync(temp.path)).toBe(true);
  } finally {
    if (previous === undefined) delete process.env.BILLING_DB;
    else process.env.BILLING_DB = previous;
  }
});

test(`the default is ${DEFAULT_DB_PATH} under the cwd, folder created`, () => {
  const previousEnv = process.env.BILLING_DB;
  const previousCwd = process.cwd();
  const cwd = mkdtempSync(join(tmpdir(), 'billing-desk-cwd-'));
  delete process.env.BILLING_DB;
  process.chdir(cwd);
  try {
    const db = open();
    expect(db.location).toBe(join(process.cwd(), DEFAULT_DB_PATH));
    expect(existsSync(join(process.cwd(), '.data', 'billing.db'))).toBe(true);
    db.close();
  } finally {
    process.chdir(previousCwd);
    if (previousEnv !== undefined) process.env.BILLING_DB = previousEnv;
    rmSync(cwd, { recursive: true, force: true });
  }
});

test(':memory: is a private database, and its writer is the main connection', () => {
  const db = open(':memory:');
  expect(db.inMemory).toBe(true);
  expect(db.connection.prepare('SELECT COUNT(*) FROM invoices').pluck().get()).toBe(SEED_INVOICE_COUNT);
  const writer = db.openWriter();
  expect(writer.shared).toBe(true);
  expect(writer.connection).toBe(db.connection);
  writer.release();
  expect(db.connection.open).toBe(true);
});

test('a file database gives writers their own connection, closed by release() or close()', () => {
  const db = open(temp.path);
  const released = db.openWriter();
  expect(released.shared).toBe(false);
  expect(released.connection).not.toBe(db.connection);
  released.release();
  expect(released.connection.open).toBe(false);

  const forgotten = db.openWriter();
  forgotten.connection.exec('BEGIN IMMEDIATE');
  db.close();
  expect(forgotten.connection.open).toBe(false);
  expect(db.connection.open).toBe(false);
});

test.each([':memory:', 'file'])('a write transaction (%s) refuses statements once committed or abandoned', async (where) => {
  const db = open(where === 'file' ? temp.path : ':memory:');
  const committed = await db.beginWrite();
  await committed.run('DELETE FROM invoices WHERE id = 40');
  await committed.commit();
  await expect(committed.run('DELETE FROM invoices')).rejects.toThrow('The write transaction has ended');
  const abandoned = await db.beginWrite();
  abandoned.abandon();
  abandoned.abandon();
  await expect(abandoned.run('DELETE FROM invoices')).rejects.toThrow('The write transaction has ended');
  await expect(abandoned.commit()).rejects.toThrow('The write transaction has ended');
  expect(db.connection.prepare('SELECT COUNT(*) FROM invoices').pluck().get()).toBe(SEED_INVOICE_COUNT - 1);
});
