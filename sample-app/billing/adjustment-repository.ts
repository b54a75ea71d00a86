import type SqliteDatabase from 'better-sqlite3';
import { injectable } from 'tsyringe';
import { Database } from '../db/database';
import type { AdjustmentReason } from './adjustment-reason';

/** An adjustment row, its idempotency key included (the output class keeps that out). */
export interface AdjustmentRecord {
  id: number;
  invoiceId: number;
  reason: AdjustmentReason;
  amountCents: number;
  createdAt: string;
  requestKey: string;
}

/** What {@link AdjustmentRepository.record} writes. */
export interface NewAdjustment {
  invoiceId: number;
  reason: AdjustmentReason;
  amountCents: number;
  at: Date;
  /** Unique per interactive call: recording the same key again returns the first row. */
  requestKey: string;
}

/** SQL for adjustments. */
@injectable()
export class AdjustmentRepository {
  private readonly db: SqliteDatabase.Database;

  constructor(database: Database) {
    this.db = database.connection;
  }

  /**
   * Records the adjustment once per request key: a replay of the same call (same key)
   * inserts nothing and returns the row the first one wrote.
   */
  record(adjustment: NewAdjustment): AdjustmentRecord {
    this.db
      .prepare(
        `INSERT INTO adjustments (invoice_id, reason, amount_cents, created_at, request_key)
         VALUES (@invoiceId, @reason, @amountCents, @createdAt, @requestKey)
         ON CONFLICT (request_key) DO NOTHING`
      )
      .run({
        invoiceId: adjustment.invoiceId,
        reason: adjustment.reason,
        amountCents: adjustment.amountCents,
        createdAt: adjustment.at.toISOString(),
        requestKey: adjustment.requestKey
      });
    return this.db
      .prepare(
        `SELECT id, invoice_id AS invoiceId, reason, amount_cents AS amountCents, created_at AS createdAt, request_key AS requestKey
           FROM adjustments WHERE request_key = ?`
      )
      .get(adjustment.requestKey) as AdjustmentRecord;
  }

  /** The adjustments of one invoice, oldest first, idempotency keys included. */
  forInvoice(invoiceId: number): AdjustmentRecord[] {
    return this.db
      .prepare(
        `SELECT id, invoice_id AS invoiceId, reason, amount_cents AS amountCents, created_at AS createdAt, request_key AS requestKey
           FROM adjustments WHERE invoice_id = ? ORDER BY id`
      )
      .all(invoiceId) as AdjustmentRecord[];
  }
}
