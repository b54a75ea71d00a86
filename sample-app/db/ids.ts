import type { SqlRunner } from './sql-database';

/** The tables whose ids clients complete by prefix. */
export type TableWithIds = 'customers' | 'invoices';

/**
 * Ids of `table` whose decimal spelling starts with `prefix` (digits only), in id order, at
 * most `limit`. A string comparison, not LIKE, so no character of the prefix is a wildcard.
 */
export async function idsStartingWith(db: SqlRunner, table: TableWithIds, prefix: string, limit: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(
    `SELECT id FROM ${table}
      WHERE substr(CAST(id AS TEXT), 1, length(CAST(@prefix AS TEXT))) = CAST(@prefix AS TEXT)
      ORDER BY id LIMIT @limit`,
    { prefix, limit }
  );
  return rows.map((row) => row.id);
}
