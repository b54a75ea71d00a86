import type SqliteDatabase from 'better-sqlite3';
import { injectable } from 'tsyringe';
import { Database } from '../db/database';
import type { AccountProvider } from './account-provider';

/** A connected account as stored. */
export interface ConnectedAccount {
  provider: AccountProvider;
  connectedAt: string;
}

/** SQL for connected accounts: one row per provider. */
@injectable()
export class ConnectedAccountRepository {
  private readonly db: SqliteDatabase.Database;

  constructor(database: Database) {
    this.db = database.connection;
  }

  /** Records the provider as connected now (connecting again refreshes the time). */
  connect(provider: AccountProvider, at: Date): ConnectedAccount {
    const connectedAt = at.toISOString();
    this.db
      .prepare(
        `INSERT INTO connected_accounts (provider, connected_at) VALUES (?, ?)
         ON CONFLICT (provider) DO UPDATE SET connected_at = excluded.connected_at`
      )
      .run(provider, connectedAt);
    return { provider, connectedAt };
  }
}
