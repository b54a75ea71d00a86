import { injectable } from 'tsyringe';
import { idsStartingWith } from '../db/ids';
import { SqlDatabase } from '../db/sql-database';
import { InvoiceStatus } from './invoice-status';

/** A customer row, internal columns included. */
export interface CustomerRecord {
  id: number;
  name: string;
  email: string;
  creditLimitCents: number;
}

/** An invoice row with its customer, internal columns included (the output class decides what leaves). */
export interface InvoiceRecord {
  id: number;
  amountCents: number;
  currency: string;
  status: InvoiceStatus;
  issuedOn: string;
  refundedAt?: string;
  internalNote: string | null;
  customer: CustomerRecord;
}

/** A line of an invoice listing. */
export interface InvoiceListing {
  id: number;
  customerId: number;
  customerName: string;
  amountCents: number;
  currency: string;
  status: InvoiceStatus;
  issuedOn: string;
}

/** The filters of {@link InvoiceRepository.list}. */
export interface ListCriteria {
  status?: InvoiceStatus;
  customerId?: number;
  limit: number;
}

/** What {@link InvoiceRepository.markRefunded} did. */
export type RefundOutcome =
  { kind: 'refunded' } | { kind: 'not-found' } | { kind: 'already-refunded'; refundedAt: string } | { kind: 'stale'; fence: number };

interface InvoiceRow {
  id: number;
  amount_cents: number;
  currency: string;
  status: InvoiceStatus;
  issued_on: string;
  refunded_at: string | null;
  internal_note: string | null;
  customer_id: number;
  customer_name: string;
  customer_email: string;
  credit_limit_cents: number;
}

/** SQL for invoices, the same on SQLite and PostgreSQL ({@link SqlDatabase}). */
@injectable()
export class InvoiceRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** The invoice with its customer, or undefined. */
  async find(id: number): Promise<InvoiceRecord | undefined> {
    const row = await this.db.get<InvoiceRow>(
      `SELECT i.id, i.amount_cents, i.currency, i.status, i.issued_on, i.refunded_at, i.internal_note,
              c.id AS customer_id, c.name AS customer_name, c.email AS customer_email, c.credit_limit_cents
         FROM invoices i JOIN customers c ON c.id = i.customer_id
        WHERE i.id = @id`,
      { id }
    );
    return row && toRecord(row);
  }

  /** Invoices matching the criteria, newest first. */
  list(criteria: ListCriteria): Promise<InvoiceListing[]> {
    return this.db.all<InvoiceListing>(
      `SELECT i.id, i.customer_id AS "customerId", c.name AS "customerName", i.amount_cents AS "amountCents",
              i.currency, i.status, i.issued_on AS "issuedOn"
         FROM invoices i JOIN customers c ON c.id = i.customer_id
        WHERE (CAST(@status AS TEXT) IS NULL OR i.status = CAST(@status AS TEXT))
          AND (CAST(@customerId AS INTEGER) IS NULL OR i.customer_id = CAST(@customerId AS INTEGER))
        ORDER BY i.issued_on DESC, i.id DESC
        LIMIT @limit`,
      { status: criteria.status ?? null, customerId: criteria.customerId ?? null, limit: criteria.limit }
    );
  }

  /** Invoice ids whose decimal spelling starts with `prefix` (digits only), in id order, at most `limit`. */
  idsStartingWith(prefix: string, limit: number): Promise<number[]> {
    return idsStartingWith(this.db, 'invoices', prefix, limit);
  }

  /**
   * Marks the invoice refunded unless it already is. The guard is in the UPDATE itself,
   * so even two connections racing cannot refund twice: exactly one sees a changed row.
   * `fencingToken` is the refund's lock grant (`ctx.lock`): the UPDATE also refuses a write
   * whose token is not above the invoice's `fence` (a later holder of the invoice's lock has
   * written since: this holder's grant has passed on), and records the token. Without a token
   * (a lock that gives none) the fence is neither checked nor changed.
   */
  async markRefunded(id: number, at: Date, fencingToken?: number): Promise<RefundOutcome> {
    const changes = await this.db.run(
      `UPDATE invoices SET status = 'refunded', refunded_at = @at, fence = COALESCE(CAST(@token AS BIGINT), fence)
        WHERE id = @id AND status <> 'refunded' AND (CAST(@token AS BIGINT) IS NULL OR fence < CAST(@token AS BIGINT))`,
      { at: at.toISOString(), token: fencingToken ?? null, id }
    );
    if (changes === 1) return { kind: 'refunded' };
    const current = await this.db.get<{ refunded_at: string | null; fence: number }>(
      'SELECT refunded_at, fence FROM invoices WHERE id = @id',
      { id }
    );
    if (!current) return { kind: 'not-found' };
    if (current.refunded_at === null) return { kind: 'stale', fence: current.fence };
    return { kind: 'already-refunded', refundedAt: current.refunded_at };
  }
}

function toRecord(row: InvoiceRow): InvoiceRecord {
  return {
    id: row.id,
    amountCents: row.amount_cents,
    currency: row.currency,
    status: row.status,
    issuedOn: row.issued_on,
    // Absent rather than null: the output schema types refundedAt as an optional string.
    ...(row.refunded_at !== null ? { refundedAt: row.refunded_at } : {}),
    internalNote: row.internal_note,
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email, creditLimitCents: row.credit_limit_cents }
  };
}
