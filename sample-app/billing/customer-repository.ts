import { injectable } from 'tsyringe';
import { idsStartingWith } from '../db/ids';
import { SqlDatabase } from '../db/sql-database';

/** A customer as letters address it: no internal columns (the risk data is not even loaded). */
export interface CustomerContact {
  id: number;
  name: string;
  email: string;
}

/** SQL for customers. */
@injectable()
export class CustomerRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** The customer's public columns, or undefined. */
  find(id: number): Promise<CustomerContact | undefined> {
    return this.db.get<CustomerContact>('SELECT id, name, email FROM customers WHERE id = @id', { id });
  }

  /** Customer ids whose decimal spelling starts with `prefix` (digits only), in id order, at most `limit`. */
  idsStartingWith(prefix: string, limit: number): Promise<number[]> {
    return idsStartingWith(this.db, 'customers', prefix, limit);
  }
}
