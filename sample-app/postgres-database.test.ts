import { freePort } from '../test/helpers/redis-server';
import { PostgresDatabase } from './db/postgres-database';

/** What needs no server: a DATABASE_URL that leads nowhere fails the start with the driver's reason, and leaves nothing open. */
test('an unreachable server: open() rejects with the reason, and no connection or timer is left behind', async () => {
  const port = await freePort();
  await expect(PostgresDatabase.open(`postgres://billing@127.0.0.1:${port}/billing`)).rejects.toThrow(/ECONNREFUSED/);
});
