import type SqliteDatabase from 'better-sqlite3';

/**
 * The billing desk's schema. `IF NOT EXISTS` everywhere so that opening an existing file
 * is a no-op; the CHECK constraints keep the refund invariant in the database itself, so
 * no code path (or hand-written SQL) can leave a refunded invoice without its timestamp.
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS customers (
  id                 INTEGER PRIMARY KEY,
  name               TEXT    NOT NULL,
  email              TEXT    NOT NULL,
  -- Internal risk data: the tools' output classes do not declare it, so it never leaves the server.
  credit_limit_cents INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS invoices (
  id            INTEGER PRIMARY KEY,
  customer_id   INTEGER NOT NULL REFERENCES customers(id),
  amount_cents  INTEGER NOT NULL CHECK (amount_cents > 0),
  currency      TEXT    NOT NULL DEFAULT 'EUR',
  status        TEXT    NOT NULL CHECK (status IN ('open', 'paid', 'refunded')),
  issued_on     TEXT    NOT NULL CHECK (issued_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  refunded_at   TEXT,
  -- Internal: notes for the finance team, never shown to clients.
  internal_note TEXT,
  -- The fencing token of the mutation lock's grant under which the invoice was last written (a
  -- refund): a write that carries an older token comes from a holder whose grant has passed on
  -- (a paused process, an expired lease) and is refused by the UPDATE itself.
  fence         INTEGER NOT NULL DEFAULT 0,
  CHECK ((status = 'refunded') = (refunded_at IS NOT NULL))
);

CREATE INDEX IF NOT EXISTS invoices_issued_on ON invoices (issued_on);
CREATE INDEX IF NOT EXISTS invoices_customer ON invoices (customer_id);

-- Materialized per-month totals, rebuilt wholesale by reports.rebuild.
CREATE TABLE IF NOT EXISTS monthly_aggregates (
  month          TEXT    PRIMARY KEY CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'),
  invoice_count  INTEGER NOT NULL,
  billed_cents   INTEGER NOT NULL,
  paid_cents     INTEGER NOT NULL,
  open_cents     INTEGER NOT NULL,
  refunded_cents INTEGER NOT NULL,
  rebuilt_at     TEXT    NOT NULL
);

-- Partial credits recorded by billing.adjust. request_key is the id the tool minted at its
-- first round and carried in the continuation state: a replayed final round finds its row
-- already there instead of adding a second one.
CREATE TABLE IF NOT EXISTS adjustments (
  id           INTEGER PRIMARY KEY,
  invoice_id   INTEGER NOT NULL REFERENCES invoices(id),
  reason       TEXT    NOT NULL CHECK (reason IN ('discount', 'billing-error', 'goodwill')),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  created_at   TEXT    NOT NULL,
  request_key  TEXT    NOT NULL UNIQUE
);

CREATE INDEX IF NOT EXISTS adjustments_invoice ON adjustments (invoice_id);

-- Third-party accounts linked by account.connect, one per provider.
CREATE TABLE IF NOT EXISTS connected_accounts (
  provider     TEXT PRIMARY KEY CHECK (provider IN ('github', 'google', 'stripe')),
  connected_at TEXT NOT NULL
);
`;

/** Brings a file made before a column was added up to date (`CREATE TABLE IF NOT EXISTS` adds tables, not columns). */
export function addMissingColumns(db: SqliteDatabase.Database): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('invoices')").pluck().all() as string[];
  if (!columns.includes('fence')) db.exec('ALTER TABLE invoices ADD COLUMN fence INTEGER NOT NULL DEFAULT 0');
}
