import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ChildServers } from '../test/helpers/child-servers';
import { startRedis, testWithRedis, type RedisServer } from '../test/helpers/redis-server';
import { modernRequest, postRaw, rawRequestText, responseOf } from '../test/helpers/raw-http';
import { acceptAll, callInstance } from './scenarios';
import { inspect, TEST_STATE_KEY, tempDb, type TempDb } from './test-helpers';

/**
 * Nothing waits forever (issue 32): the confirming round of a confirmed refund is sent and its
 * connection cut at several moments (at the first byte of the answer, and 0, 1, 2, 5, 10, 20 and
 * 50 ms after the request is flushed), then re-issued with a new request id, as a 2026-07-28
 * client whose stream broke does. Every re-issue answers (a wait on the cut attempt's claim ends
 * however that attempt ends) with the refund's result, and every invoice is refunded once. In a
 * loop, under CPU load (two busy processes beside the servers), on one instance and across two
 * instances on Redis (the cut attempt on one, the re-issue on the other).
 */
const MAIN = join(__dirname, '..', 'build', 'sample-app', 'main.js');
const LISTENING = /billing-desk listening on (\S+) \(pid \d+\)/;
const CUTS: ReadonlyArray<'first byte' | number> = ['first byte', 0, 1, 2, 5, 10, 20, 50];
const LOOPS = 3;
/** How long a re-issue may take before the test calls it a wait that never ends (the server answers in milliseconds). */
const REISSUE_DEADLINE_MS = 15_000;

let db: TempDb;
const servers = new ChildServers();
let load: ChildProcess[] = [];

beforeEach(() => {
  db = tempDb();
  // CPU load: two busy processes on a two-core machine, so that the cuts land at every stage of the call.
  load = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
});
afterEach(async () => {
  for (const busy of load) busy.kill('SIGKILL');
  await servers.stopAll();
  db.remove();
});

/** Sends `request` on a socket of its own and cuts it: at the answer's first byte, or `ms` after the request is flushed. */
function cutAttempt(url: URL, request: { body: string; headers: Record<string, string> }, cut: 'first byte' | number): Promise<void> {
  return new Promise<void>((resolve) => {
    const socket = connect(Number(url.port), '127.0.0.1', () => {
      socket.write(rawRequestText({ target: '/mcp', hostLines: [url.host], headers: request.headers, body: request.body }), () => {
        if (cut === 'first byte') socket.once('data', () => socket.destroy());
        else if (cut === 0) socket.destroy();
        else setTimeout(() => socket.destroy(), cut);
      });
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
  });
}

/** A 2026-07-28 `tools/call` whose answer must come within the deadline. */
async function reissue(url: URL, params: Record<string, unknown>, what: string) {
  const { body, headers } = modernRequest('tools/call', params);
  const answer = await Promise.race([
    postRaw(url, body, headers),
    new Promise<never>((_, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the re-issue (${what}) got no answer within ${REISSUE_DEADLINE_MS} ms`)),
        REISSUE_DEADLINE_MS
      );
      timer.unref();
    })
  ]);
  return responseOf(answer);
}

/** Every cut, LOOPS times: the first attempt on `first`, the re-issue on `second`; one refund and a successful answer each. */
async function cutAndReissue(first: URL, second: URL): Promise<void> {
  const disk = inspect(db.path);
  try {
    const ids = (
      disk.prepare("SELECT id FROM invoices WHERE status = 'paid' ORDER BY id LIMIT ?").all(CUTS.length * LOOPS) as Array<{ id: number }>
    ).map((row) => row.id);
    expect(ids).toHaveLength(CUTS.length * LOOPS);
    let next = 0;
    for (let loop = 0; loop < LOOPS; loop++) {
      for (const cut of CUTS) {
        const id = ids[next++];
        const asked = (await callInstance(first, { name: 'billing.refund', arguments: { id } })).result as {
          requestState: string;
          inputRequests: object;
        };
        const round = {
          name: 'billing.refund',
          arguments: { id },
          requestState: asked.requestState,
          inputResponses: acceptAll(asked.inputRequests)
        };
        await cutAttempt(first, modernRequest('tools/call', round), cut);
        const what = `invoice ${id}, cut ${cut === 'first byte' ? 'at the first byte' : `${cut} ms after flush`}, loop ${loop + 1}`;
        const again = await reissue(second, round, what);
        expect({ what, error: again.error }).toEqual({ what, error: undefined });
        expect({ what, result: again.result }).toMatchObject({ what, result: { structuredContent: { id, status: 'refunded' } } });
        const refunds = (disk.prepare("SELECT count(*) AS n FROM invoices WHERE id = ? AND status = 'refunded'").get(id) as { n: number })
          .n;
        expect({ what, refunds }).toEqual({ what, refunds: 1 });
      }
    }
  } finally {
    disk.close();
  }
}

test('one instance: every re-issue of a cut confirming round answers, one refund each', async () => {
  const url = await servers.start([MAIN], { PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY }, LISTENING);
  await cutAndReissue(url, url);
}, 120_000);

describe('two instances on Redis', () => {
  let redis: RedisServer | undefined;
  afterAll(() => redis?.stop());

  testWithRedis(
    'cut on one, re-issued on the other: every re-issue answers, one refund each',
    async () => {
      redis ??= await startRedis();
      const env = { PORT: '0', BILLING_DB: db.path, FUSION_STATE_KEY: TEST_STATE_KEY, REDIS_URL: redis.url };
      const a = await servers.start([MAIN], env, LISTENING);
      const b = await servers.start([MAIN], env, LISTENING);
      await cutAndReissue(a, b);
    },
    180_000
  );
});
