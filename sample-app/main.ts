import 'reflect-metadata';
import { createBillingApp } from './app';

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
 */

async function main(): Promise<void> {
  const app = createBillingApp();
  if (process.argv.includes('--stdio')) {
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
  process.stderr.write(`billing-desk listening on ${url?.href} (pid ${process.pid})\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`billing-desk failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
