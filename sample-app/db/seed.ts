import type SqliteDatabase from 'better-sqlite3';

/** The demo customers (ids 1–5). */
export const SEED_CUSTOMERS = [
  { id: 1, name: 'Acme Corp', email: 'billing@acme.example', creditLimitCents: 5_000_000 },
  { id: 2, name: 'Globex Ltd', email: 'ap@globex.example', creditLimitCents: 2_500_000 },
  { id: 3, name: 'Initech GmbH', email: 'finance@initech.example', creditLimitCents: 1_000_000 },
  { id: 4, name: 'Umbrella Health', email: 'payables@umbrella.example', creditLimitCents: 7_500_000 },
  { id: 5, name: 'Stark Logistics', email: 'invoices@stark.example', creditLimitCents: 3_000_000 }
] as const;

/** How many invoices the seed writes (ids 1–40). */
export const SEED_INVOICE_COUNT = 40;

const NOTES = [
  'Margin below target; do not offer further discounts.',
  'Customer disputed a similar invoice last year.',
  'Approved by the CFO as a one-off price.',
  'Collections: call before the due date.'
];

/**
 * The i-th seeded invoice. Pure arithmetic on i (no randomness, no clock) so every fresh
 * database is identical and tests can rely on the data: 40 invoices spread over the 24
 * months of 2025–2026, all five customers, every status.
 */
export function seedInvoice(i: number): {
  customerId: number;
  amountCents: number;
  status: 'open' | 'paid' | 'refunded';
  issuedOn: string;
  refundedAt: string | null;
  internalNote: string;
} {
  const monthIndex = Math.floor((i * 24) / SEED_INVOICE_COUNT);
  const year = 2025 + Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const day = 1 + ((i * 11) % 28);
  const issuedOn = `${year}-${pad(month)}-${pad(day)}`;
  const status = i % 7 === 3 ? 'refunded' : i % 4 === 1 ? 'open' : 'paid';
  return {
    customerId: 1 + ((i * 3) % SEED_CUSTOMERS.length),
    amountCents: 25_000 + ((i * 37) % 20) * 7_500,
    status,
    issuedOn,
    refundedAt: status === 'refunded' ? new Date(Date.UTC(year, month - 1, day + 14, 9, 30)).toISOString() : null,
    internalNote: NOTES[i % NOTES.length]
  };
}

/**
 * Seeds the demo data, only into an empty database. Runs as one IMMEDIATE transaction
 * that re-checks emptiness inside it, so two processes starting on the same new file
 * cannot both seed it.
 */
export function seedIfEmpty(db: SqliteDatabase.Database): void {
  const insertCustomer = db.prepare('INSERT INTO customers (id, name, email, credit_limit_cents) VALUES (?, ?, ?, ?)');
  const insertInvoice = db.prepare(
    `INSERT INTO invoices (id, customer_id, amount_cents, status, issued_on, refunded_at, internal_note)
     VALUES (?, ?, ?, ?, ?, ?, ?)`
  );
  const seed = db.transaction(() => {
    const existing = db.prepare('SELECT COUNT(*) FROM customers').pluck().get() as number;
    if (existing > 0) return;
    for (const c of SEED_CUSTOMERS) insertCustomer.run(c.id, c.name, c.email, c.creditLimitCents);
    for (let i = 0; i < SEED_INVOICE_COUNT; i++) {
      const inv = seedInvoice(i);
      insertInvoice.run(i + 1, inv.customerId, inv.amountCents, inv.status, inv.issuedOn, inv.refundedAt, inv.internalNote);
    }
  });
  seed.immediate();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
