import 'reflect-metadata';
import { createBillingApp } from './app';
import { deskAuthFromEnv } from './auth-config';
import type { SqlDatabase } from './db/sql-database';
import type { fleetFromEnv } from './fleet';
import { telemetryFromEnv } from './telemetry';

/*
 * Entry point. `--stdio` serves MCP over stdin/stdout; otherwise Streamable HTTP on
 * HOST:PORT (default 127.0.0.1:3000). Diagnostics go to stderr only: on stdio, stdout
 * is the protocol channel and one stray line corrupts it. FUSION_STATE_KEY (32+ bytes) signs
 * the state of questions in flight (refund confirmations, adjustments, account
 * connections); without it each process uses a random key (with a warning): fine for one
 * process, but a restart then ends the questions in flight.
 *
 *   node build/sample-app/main.js --stdio      (what an MCP client configuration runs: no recompiling)
 *   PORT=8080 BILLING_DB=/var/lib/billing.db FUSION_STATE_KEY=… node build/sample-app/main.js
 *   HOST=0.0.0.0 ALLOWED_HOSTS=billing.internal node build/sample-app/main.js
 *
 * With MCP_AUTH_ISSUER, MCP_AUTH_AUDIENCE and MCP_AUTH_JWKS_FILE (or MCP_AUTH_JWKS_URL) set, HTTP
 * needs bearer tokens and each tool its scopes (auth-config.ts; `node scripts/dev-auth.mjs` makes
 * a development key and tokens). Without them it runs open: for local use on 127.0.0.1 only.
 * stdio is never authenticated (the client started this process).
 *
 * With DATABASE_URL (postgres://…) the desk runs on PostgreSQL instead of the SQLite file (same
 * schema, seeded on first start; task records then in memory, or in Redis in a fleet).
 *
 * With REDIS_URL (and one FUSION_STATE_KEY for all, and one database: DATABASE_URL, or one
 * BILLING_DB file when every instance is on one machine), it runs as one instance of a fleet
 * (fleet.ts): start several with their own PORT behind a load balancer.
 *
 * With OTEL_EXPORTER_OTLP_ENDPOINT set it exports traces and metrics over OTLP/HTTP (telemetry.ts;
 * the standard OTEL_* variables apply), flushed when it stops; without it, nothing is loaded.
 */

async function main(): Promise<void> {
  const stdio = process.argv.includes('--stdio');
  // First: the app takes the registered providers when it is created.
  const telemetry = await telemetryFromEnv();
  const auth = stdio ? undefined : deskAuthFromEnv();
  const database = await databaseFromEnv();
  let fleet: Awaited<ReturnType<typeof fleetFromEnv>>;
  try {
    // Loaded only with REDIS_URL, like `pg` below: a desk alone never loads the framework's Redis modules.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    fleet = process.env.REDIS_URL?.trim() ? await (require('./fleet') as typeof import('./fleet.js')).fleetFromEnv() : undefined;
  } catch (error) {
    await database?.close();
    throw error;
  }
  const app = createBillingApp({ auth, fleet: fleet?.options, database, toolSearch: process.env.BILLING_TOOL_SEARCH === '1' });
  const close = app.close.bind(app);
  // Redis closes after the app (its calls may still release the lock); the spans and metrics of the last calls are flushed last.
  app.close = () =>
    close()
      .finally(() => fleet?.redis.close())
      .finally(() => telemetry?.shutdown());
  if (stdio) {
    const { closed } = await app.listen({ transport: 'stdio' });
    await closed;
    await app.close();
    return;
  }
  const allowedHosts = process.env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const { url } = await app
    .listen({
      transport: 'http',
      host: process.env.HOST ?? '127.0.0.1',
      port: Number(process.env.PORT ?? 3000),
      ...(allowedHosts?.length ? { allowedHosts } : {}),
      ...(fleet ? { sessions: fleet.sessions } : {})
    })
    .catch(async (error: unknown) => {
      // A port in use, say: close what is open (the database pool, Redis) so that the process exits.
      await app.close();
      throw error;
    });
  const mode =
    `${auth ? 'bearer tokens required' : 'open: no auth, local use only'}, ${database ? 'PostgreSQL' : 'SQLite'}` +
    `${fleet ? ', one instance of a fleet (Redis)' : ''}`;
  process.stderr.write(`billing-desk listening on ${url?.href} (pid ${process.pid}), ${mode}\n`);
}

/** PostgreSQL when DATABASE_URL is set (loaded only then: SQLite needs no `pg`), else undefined (the SQLite file). */
async function databaseFromEnv(): Promise<SqlDatabase | undefined> {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) return undefined;
  // Not echoed: the URL may carry a password.
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new Error('DATABASE_URL must be a PostgreSQL URL: postgres://user[:password]@host[:port]/database');
  // Loaded here, on need, like telemetry.ts: the SQLite desk never loads `pg`.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PostgresDatabase } = require('./db/postgres-database') as typeof import('./db/postgres-database.js');
  return PostgresDatabase.open(url);
}

main().catch((error: unknown) => {
  process.stderr.write(`billing-desk failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
