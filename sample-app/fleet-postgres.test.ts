import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ChildServers } from '../test/helpers/child-servers';
import { callInstance as call, refundThroughBoth } from './scenarios';
import { POSTGRES_INSTALL, startPostgres, type PostgresServer } from '../test/helpers/postgres-server';
import { startRedis, type RedisServer } from '../test/helpers/redis-server';
import { POSTGRES_INSTALLED, TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/**
 * Two billing-desk instances as child processes sharing one real redis-server and one real
 * PostgreSQL server (DATABASE_URL): what a fleet on several machines runs. No SQLite file is
 * made, and the instances behave like one server.
 */
const MAIN = join(__dirname, '..', 'build', 'sample-app', 'main.js');
const LISTENING = /billing-desk listening on (\S+) \(pid \d+\), .*PostgreSQL, one instance of a fleet \(Redis\)/;

const suite = POSTGRES_INSTALLED ? describe : describe.skip;

suite(`a fleet on PostgreSQL and Redis${POSTGRES_INSTALLED ? '' : ` (skipped: PostgreSQL is not installed: ${POSTGRES_INSTALL})`}`, () => {
  let redis: RedisServer;
  let postgres: PostgresServer;
  let unused: TempDb;
  let db: Client;
  const servers = new ChildServers();

  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
    unused = tempDb();
  }, 60_000);
  afterAll(async () => {
    await servers.stopAll();
    await db?.end();
    unused?.remove();
    await Promise.all([redis?.stop(), postgres?.stop()]);
  });

  // BILLING_DB is set too, to show that DATABASE_URL wins: that file is never created.
  const instance = (): Promise<URL> =>
    servers.start(
      [MAIN],
      { PORT: '0', DATABASE_URL: postgres.url, BILLING_DB: unused.path, FUSION_STATE_KEY: TEST_STATE_KEY, REDIS_URL: redis.url },
      LISTENING
    );


  test('two instances started together create and seed the database once; concurrent confirmed refunds of one invoice through both: refunded exactly once, under a fence', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    db = new Client({ connectionString: postgres.url });
    await db.connect();
    expect((await db.query('SELECT count(*)::int AS n FROM invoices')).rows[0]).toEqual({ n: 40 });
    expect(existsSync(unused.path)).toBe(false);
    const id = (await db.query("SELECT id FROM invoices WHERE status <> 'refunded' ORDER BY id LIMIT 1")).rows[0].id as number;
    const results = await refundThroughBoth([a, b], id);
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(results.filter((r) => r.isError && /already refunded/.test(r.content[0].text))).toHaveLength(1);
    const row = (await db.query('SELECT status, fence FROM invoices WHERE id = $1', [id])).rows[0] as { status: string; fence: string };
    expect(row.status).toBe('refunded');
    // The Redis lock's fencing token of the invoice's key, recorded by the UPDATE that checked it.
    expect(Number(row.fence)).toBeGreaterThan(0);
    // What one instance wrote, the other reads.
    const seen = (await call(b, { name: 'billing.invoice', arguments: { id } })).result as { structuredContent: { status: string } };
    expect(seen.structuredContent.status).toBe('refunded');
  }, 60_000);

  test('an instance whose port is taken exits 1 with the reason, its database pool and Redis closed (nothing keeps it alive)', async () => {
    const taken = await instance();
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, PORT: taken.port, DATABASE_URL: postgres.url, FUSION_STATE_KEY: TEST_STATE_KEY, REDIS_URL: redis.url },
      stdio: ['ignore', 'ignore', 'pipe']
    });
    try {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'exit', { signal: AbortSignal.timeout(20_000) })) as [number | null];
      expect(code).toBe(1);
      expect(stderr).toMatch(/billing-desk failed to start: .*EADDRINUSE/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      child.stderr.destroy();
    }
  }, 60_000);
});
