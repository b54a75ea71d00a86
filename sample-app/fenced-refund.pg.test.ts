import { Client } from 'pg';
import { POSTGRES_INSTALL, postgresBin, startPostgres, type PostgresServer } from '../test/helpers/postgres-server';

/**
 * The refund's fenced UPDATE (invoice-repository.ts) in its PostgreSQL form, against a real
 * server: a write whose fencing token is not above the invoice's fence is refused by the
 * database itself, and changes nothing; and two holders racing on two connections. (The
 * repository's own statement, through the app on PostgreSQL, is tested in rebuild.pg.test.ts.)
 */
const FENCED_REFUND = `
  UPDATE invoices SET status = 'refunded', refunded_at = $1, fence = $2
   WHERE id = $3 AND status <> 'refunded' AND fence < $2`;

const installed = postgresBin() !== undefined;
const suite = installed ? describe : describe.skip;

suite(`the fenced refund UPDATE on PostgreSQL${installed ? '' : ` (skipped: PostgreSQL is not installed: ${POSTGRES_INSTALL})`}`, () => {
  let server: PostgresServer;
  let db: Client;
  beforeAll(async () => {
    server = await startPostgres();
    db = new Client({ connectionString: server.url });
    db.on('error', () => undefined);
    await db.connect();
    await db.query(`
      CREATE TABLE invoices (
        id          integer PRIMARY KEY,
        status      text    NOT NULL CHECK (status IN ('open', 'paid', 'refunded')),
        refunded_at text,
        fence       bigint  NOT NULL DEFAULT 0,
        CHECK ((status = 'refunded') = (refunded_at IS NOT NULL))
      )`);
  }, 60_000);
  afterAll(async () => {
    await db?.end();
    await server?.stop();
  });

  const row = async (id: number) =>
    (await db.query('SELECT status, refunded_at, fence FROM invoices WHERE id = $1', [id])).rows[0] as unknown;

  test('a stale holder (a token not above the fence) is refused and changes nothing; a later holder writes', async () => {
    await db.query("INSERT INTO invoices (id, status) VALUES (1, 'paid')");
    // A later holder of the invoice's lock wrote under token 1796181555662300.
    await db.query('UPDATE invoices SET fence = $1 WHERE id = 1', ['1796181555662300']);
    const before = await row(1);
    expect((await db.query(FENCED_REFUND, ['2026-12-02T03:00:00.000Z', '1796181555662299', 1])).rowCount).toBe(0);
    expect((await db.query(FENCED_REFUND, ['2026-12-02T03:00:00.000Z', '1796181555662300', 1])).rowCount).toBe(0);
    expect(await row(1)).toEqual(before);
    expect((await db.query(FENCED_REFUND, ['2026-12-02T03:00:01.000Z', '1796181555662301', 1])).rowCount).toBe(1);
    expect(await row(1)).toEqual({ status: 'refunded', refunded_at: '2026-12-02T03:00:01.000Z', fence: '1796181555662301' });
  });

  test("two holders racing on two connections: the stale one waits for the later one's commit, then is refused", async () => {
    await db.query("INSERT INTO invoices (id, status) VALUES (2, 'open')");
    const stale = new Client({ connectionString: server.url });
    stale.on('error', () => undefined); // the server stopping after a failure must not be an unhandled error
    await stale.connect();
    try {
      await db.query('BEGIN');
      expect((await db.query(FENCED_REFUND, ['2026-12-02T03:00:02.000Z', '500', 2])).rowCount).toBe(1);
      // The stale holder's write blocks on the row until the later holder commits, then re-checks its WHERE.
      const refused = stale.query(FENCED_REFUND, ['2026-12-02T03:00:03.000Z', '400', 2]);
      const blocked = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE invoices%'";
      // Statistics are a snapshot per transaction: cleared at each look, so the wait is seen when it starts.
      for (let looks = 0; ; looks++) {
        await db.query('SELECT pg_stat_clear_snapshot()');
        if (((await db.query(blocked)).rows[0] as { n: number }).n > 0) break;
        if (looks > 100_000) throw new Error('the stale holder never waited for the row lock');
      }
      await db.query('COMMIT');
      expect((await refused).rowCount).toBe(0);
      expect(await row(2)).toEqual({ status: 'refunded', refunded_at: '2026-12-02T03:00:02.000Z', fence: '500' });
    } finally {
      await stale.end();
    }
  });
});
