import 'reflect-metadata';
import { join } from 'node:path';
import { deskAuthFromEnv } from './auth-config';
import { createFrontDesk } from './front-desk';
import { branchFromEnv } from './front/branch-config';

/*
 * The front desk's entry point (front-desk.ts): the billing desk mounted under `desk` and a branch
 * desk proxied under `branch`, served over Streamable HTTP on HOST:PORT (default 127.0.0.1:3100,
 * beside the desk's 3000), or over stdio with `--stdio`. Diagnostics go to stderr only.
 *
 *   node build/sample-app/front-main.js                  (the branch: a second desk spawned over stdio, .data/branch.db)
 *   FRONT_BRANCH=http://127.0.0.1:3000/mcp node build/sample-app/front-main.js     (the branch: the desk of `npm start`)
 *   FRONT_BRANCH='node build/sample-app/main.js --stdio' BRANCH_DB=/tmp/b.db node build/sample-app/front-main.js
 *
 * FRONT_DB is the mounted desk's SQLite file (default .data/front-desk.db); FRONT_BRANCH_SESSIONS
 * the upstream sessions the gateway holds at once at an HTTP branch (default 8, see
 * `FrontDeskOptions.maxBranchSessions`); FUSION_STATE_KEY and the MCP_AUTH_* variables as for the
 * desk (main.ts). With auth, the front desk checks tokens; it sends none to the branch.
 * Its tool calls take the front fast lane, as on every HTTP endpoint (`frontLane`, docs/gateway.md);
 * FRONT_LANE=1 takes the gateway's form (quick 2025-era calls answered as one JSON body), FRONT_LANE=0
 * turns it off. The lane leaves every call to the normal path while the desk checks tokens (auth), so it
 * serves them without.
 */

async function main(): Promise<void> {
  const stdio = process.argv.includes('--stdio');
  const sessions = process.env.FRONT_BRANCH_SESSIONS?.trim();
  const front = await createFrontDesk({
    dbPath: process.env.FRONT_DB?.trim() || join('.data', 'front-desk.db'),
    branch: branchFromEnv(process.env, __dirname),
    ...(sessions ? { maxBranchSessions: Number(sessions) } : {}),
    auth: stdio ? undefined : deskAuthFromEnv()
  });
  if (stdio) {
    const { closed } = await front.listen({ transport: 'stdio' });
    await closed;
    await front.close();
    return;
  }
  const { url } = await front
    .listen({
      transport: 'http',
      host: process.env.HOST ?? '127.0.0.1',
      port: Number(process.env.PORT ?? 3100),
      ...(process.env.FRONT_LANE === '1' ? { frontLane: true } : process.env.FRONT_LANE === '0' ? { frontLane: false } : {})
    })
    .catch(async (error: unknown) => {
      // A port in use, say: stop the branch and close the database, so that the process exits.
      await front.close();
      throw error;
    });
  process.stderr.write(`front-desk listening on ${url?.href} (pid ${process.pid}): desk.* mounted, branch.* proxied\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`front-desk failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
