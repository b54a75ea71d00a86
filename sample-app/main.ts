import 'reflect-metadata';
import { createBillingApp } from './app';
import { authFromEnv } from './auth-config';

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
 */

async function main(): Promise<void> {
  const stdio = process.argv.includes('--stdio');
  const auth = stdio ? undefined : authFromEnv();
  const app = createBillingApp({ auth });
  if (stdio) {
    const { closed } = await app.listen({ transport: 'stdio' });
    await closed;
    await app.close();
    return;
  }
  const allowedHosts = process.env.ALLOWED_HOSTS?.split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const { url } = await app.listen({
    transport: 'http',
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.PORT ?? 3000),
    ...(allowedHosts?.length ? { allowedHosts } : {})
  });
  const mode = auth ? 'bearer tokens required' : 'open: no auth, local use only';
  process.stderr.write(`billing-desk listening on ${url?.href} (pid ${process.pid}), ${mode}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`billing-desk failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
