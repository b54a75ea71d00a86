import type SqliteDatabase from 'better-sqlite3';
import { injectable } from 'tsyringe';
import { Database } from '../db/database';
import { idsStartingWith } from '../db/ids';

/** A customer as letters address it: no internal columns (the risk data is not even loaded). */
export interface CustomerContact {
  id: number;
  name: string;
  email: string;
}

/** SQL for customers. */
@injectable()
export class CustomerRepository {
  private readonly db: SqliteDatabase.Database;

  constructor(database: Database) {
    this.db = database.connection;
  }

  /** The customer's public columns, or undefined. */
  find(id: number): CustomerContact | undefined {
    return this.db.prepare('SELECT id, name, email FROM customers WHERE id = ?').get(id) as CustomerContact | undefined;
  }

  /** Customer ids whose decimal spelling starts with `prefix` (digits only), in id order, at most `limit`. */
  idsStartingWith(prefix: string, limit: number): number[] {
    return idsStartingWith(this.db, 'customers', prefix, limit);
  }
}
