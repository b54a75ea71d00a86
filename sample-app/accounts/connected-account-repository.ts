import { injectable } from 'tsyringe';
import { SqlDatabase } from '../db/sql-database';
import type { AccountProvider } from './account-provider';

/** A connected account as stored. */
export interface ConnectedAccount {
  provider: AccountProvider;
  connectedAt: string;
}

/** SQL for connected accounts: one row per provider. */
@injectable()
export class ConnectedAccountRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** Records the provider as connected now (connecting again refreshes the time). */
  async connect(provider: AccountProvider, at: Date): Promise<ConnectedAccount> {
    const connectedAt = at.toISOString();
    await this.db.run(
      `INSERT INTO connected_accounts (provider, connected_at) VALUES (@provider, @connectedAt)
       ON CONFLICT (provider) DO UPDATE SET connected_at = excluded.connected_at`,
      { provider, connectedAt }
    );
    return { provider, connectedAt };
  }
}
