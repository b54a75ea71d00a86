import type SqliteDatabase from 'better-sqlite3';

/** The tables whose ids clients complete by prefix. */
export type TableWithIds = 'customers' | 'invoices';

/**
 * Ids of `table` whose decimal spelling starts with `prefix` (digits only), in id order, at
 * most `limit`. A string comparison, not LIKE, so no character of the prefix is a wildcard.
 */
export function idsStartingWith(db: SqliteDatabase.Database, table: TableWithIds, prefix: string, limit: number): number[] {
  return db
    .prepare(`SELECT id FROM ${table} WHERE substr(CAST(id AS TEXT), 1, length(@prefix)) = @prefix ORDER BY id LIMIT @limit`)
    .pluck()
    .all({ prefix, limit }) as number[];
}
