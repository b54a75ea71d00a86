import { injectable } from 'tsyringe';
import { SqlDatabase } from '../db/sql-database';
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

const SELECT_ADJUSTMENTS = `SELECT id, invoice_id AS "invoiceId", reason, amount_cents AS "amountCents",
                                   created_at AS "createdAt", request_key AS "requestKey"
                              FROM adjustments`;

/** SQL for adjustments. */
@injectable()
export class AdjustmentRepository {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Records the adjustment once per request key: a replay of the same call (same key)
   * inserts nothing and returns the row the first one wrote.
   */
  async record(adjustment: NewAdjustment): Promise<AdjustmentRecord> {
    await this.db.run(
      `INSERT INTO adjustments (invoice_id, reason, amount_cents, created_at, request_key)
       VALUES (@invoiceId, @reason, @amountCents, @createdAt, @requestKey)
       ON CONFLICT (request_key) DO NOTHING`,
      {
        invoiceId: adjustment.invoiceId,
        reason: adjustment.reason,
        amountCents: adjustment.amountCents,
        createdAt: adjustment.at.toISOString(),
        requestKey: adjustment.requestKey
      }
    );
    return (await this.db.get<AdjustmentRecord>(`${SELECT_ADJUSTMENTS} WHERE request_key = @requestKey`, {
      requestKey: adjustment.requestKey
    }))!;
  }

  /** The adjustments of one invoice, oldest first, idempotency keys included. */
  forInvoice(invoiceId: number): Promise<AdjustmentRecord[]> {
    return this.db.all<AdjustmentRecord>(`${SELECT_ADJUSTMENTS} WHERE invoice_id = @invoiceId ORDER BY id`, { invoiceId });
  }
}
