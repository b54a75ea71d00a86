import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FusionApp, SqliteTaskStore, skills, type AuthOptions, type FusionAppOptions } from '@mcpfusion/core';
import { AccountTools } from './accounts/account.tools';
import { AdjustmentTools } from './billing/adjustment.tools';
import { BillingTools } from './billing/billing.tools';
import { CollectionsPrompts } from './billing/collections.prompts';
import { InvoiceResources } from './billing/invoice.resources';
import { ResourceEvents } from './billing/resource-events';
import { Database } from './db/database';
import { SQL_DATABASE, type SqlDatabase } from './db/sql-database';
import { ReportTools } from './reports/report.tools';
import { SAMPLE_VIEWS } from './views/sample-views';

/** The version the billing desk announces to clients. */
export const BILLING_DESK_VERSION = '1.0.0';

/** The desk's skills (`skills/refund-request`): beside this file, or, from the compiled `build/sample-app`, in the sources. */
export const SKILLS_FOLDER = existsSync(join(__dirname, 'skills'))
  ? join(__dirname, 'skills')
  : join(__dirname, '..', '..', 'sample-app', 'skills');

/** Options of {@link createBillingApp}. */
export interface BillingAppOptions {
  /** The SQLite file (or `:memory:`). Default: `$BILLING_DB`, else `.data/billing.db` under the cwd. Ignored with `database`. */
  dbPath?: string;
  /**
   * An opened database to use instead of the SQLite file: `await PostgresDatabase.open(url)`
   * (what `main.ts` does when `DATABASE_URL` is set). The app closes it when it closes.
   */
  database?: SqlDatabase;
  /**
   * The key (at least 32 bytes) that signs the state of questions in flight (refund
   * confirmations, adjustments, account connections). Default: `$FUSION_STATE_KEY`, else a
   * random key per process (enough for one process); several instances must share one.
   */
  stateKey?: string;
  /**
   * Serve HTTP as an OAuth protected resource (see `auth-config.ts` for the environment form).
   * The scopes each tool needs are declared on it (`scopes.ts`). Default: none (open, for local use).
   */
  auth?: AuthOptions;
  /**
   * Serve the tools behind search (`toolSearch`): `tools/list` shows `search_tools` and `call_tool`, and the
   * model finds `billing.refund` by asking for "refund an invoice". Seven tools need no search; a desk behind
   * a gateway with many others does (`BILLING_TOOL_SEARCH=1` in `main.ts`). Default off.
   */
  toolSearch?: FusionAppOptions['toolSearch'];
  /** One instance of a fleet: the mutation lock, change notifications and continuation state it shares (see `fleet.ts`). */
  fleet?: Pick<FusionAppOptions, 'mutationLock' | 'bus' | 'continuationStore' | 'tasks'>;
}

/**
 * The billing and reports desk: opens (and on first start creates and seeds) the database,
 * and builds the app around it. `app.close()` closes the database after in-flight calls
 * are aborted. The database is in the app's container: `app.container.resolve(SQL_DATABASE)`
 * (on SQLite also as `Database`, with its connection).
 *
 * @example
 * ```ts
 * const app = createBillingApp({ dbPath: '/tmp/billing.db' });
 * const result = await app.callTool('billing.invoice', { id: 1 });
 * await app.close();
 * ```
 */
export function createBillingApp(options: BillingAppOptions = {}): FusionApp {
  const db = options.database ?? new Database(options.dbPath);
  try {
    const app: FusionApp = FusionApp.create({
      name: 'billing-desk',
      version: BILLING_DESK_VERSION,
      instructions:
        'Billing and reports desk. Amounts are integers in cents. Find invoices with billing.list, read one with billing.invoice; ' +
        'refunds are final and ask the user to confirm. billing.adjust and account.connect ask the user for what they need. ' +
        'Each invoice is also the resource billing://invoices/{id}; the billing.collections_letter prompt drafts a payment reminder.',
      tools: [BillingTools, AdjustmentTools, ReportTools, AccountTools, InvoiceResources, CollectionsPrompts],
      // The Skills extension: how to handle a refund request with these tools, at skill://refund-request/SKILL.md.
      extensions: [skills({ folder: SKILLS_FOLDER })],
      // MCP Apps views: the invoice desk (billing.list) and the rebuild panel (reports.rebuild); see views/sample-views.ts.
      views: SAMPLE_VIEWS,
      stateKey: options.stateKey,
      auth: options.auth,
      toolSearch: options.toolSearch,
      mutationLock: options.fleet?.mutationLock,
      bus: options.fleet?.bus,
      continuationStore: options.fleet?.continuationStore,
      // Task records (reports.rebuild, billing.refund as tasks): in a fleet, the fleet's store (Redis); alone on SQLite,
      // in the same file; alone on PostgreSQL, in memory (a restart forgets them; a fleet on PostgreSQL keeps them in Redis).
      tasks:
        options.fleet?.tasks ??
        (db instanceof Database
          ? { store: new SqliteTaskStore(db.openTaskConnection()), ttlMs: 24 * 3_600_000 }
          : { ttlMs: 24 * 3_600_000 }),
      // In production an unexpected failure (a driver error, say) reaches clients as a generic
      // message with a reference; the log has the original. Domain failures are ToolErrors: always sent.
      maskErrors: process.env.NODE_ENV === 'production',
      // A refund's result is presented after it is decided (a cancel then changes nothing); a presenter
      // slower than this answers "ran, but presenting failed" rather than hanging the call. The default.
      presenterTimeoutMs: 10_000,
      providers: [
        { provide: SQL_DATABASE, useValue: db },
        ...(db instanceof Database ? [{ provide: Database, useValue: db }] : []),
        // Tells subscribers when an invoice changes, through this app: not the FUSION_APP token, which a mounted
        // class resolves to the app it is mounted into (where billing://invoices/7 is desk+billing://invoices/7).
        // This app's notifyResourceUpdated reaches its own subscribers, and, mounted, the parent's of the namespaced URI.
        { provide: ResourceEvents, useFactory: () => new ResourceEvents(app) }
      ],
      onClose: () => db.close()
    });
    return app;
  } catch (error) {
    // A startup error (misdeclared tool) must not leave the file (or the pool) open.
    void db.close();
    throw error;
  }
}
