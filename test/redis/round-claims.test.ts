import { connectRedis, RedisContinuationStore, type RedisConnection } from '../../src/redis';
import { RoundClaim } from '../../src/interactive/round-claim';
import { describeWithRedis, startRedis, type RedisServer } from '../helpers/redis-server';

/**
 * The rounds of exactly-once members as a fleet shares them (a real redis-server): a round given
 * back by a failed attempt runs again with its own answers only; another fingerprint is refused; a
 * claim holds while its attempt renews its lease and lapses with it when its instance is gone.
 */
describeWithRedis('RedisContinuationStore: exactly-once rounds', () => {
  let redis: RedisServer;
  let connection: RedisConnection;
  let store: RedisContinuationStore;
  beforeAll(async () => {
    redis = await startRedis();
    connection = await connectRedis(redis.url);
    store = new RedisContinuationStore(connection, { key: 'round-claims-test-key-of-32-bytes!!' });
  });
  afterAll(async () => {
    await connection.close();
    await redis.stop();
  });

  it('claims once; a round given back keeps its fingerprint; an outcome is answered to the same round only', async () => {
    expect(await store.claim('r1', 'yes')).toEqual({ kind: 'run' });
    expect(await store.claim('r1', 'no')).toEqual({ kind: 'refused' });
    await store.releaseClaim('r1');
    expect(await store.claim('r1', 'no')).toEqual({ kind: 'refused' });
    expect(await store.claim('r1', 'yes')).toEqual({ kind: 'run' });
    await store.recordOutcome('r1', { content: [{ type: 'text', text: 'refunded' }] });
    await store.releaseClaim('r1'); // too late: the round has its outcome
    expect(await store.claim('r1', 'yes')).toEqual({ kind: 'done', outcome: { content: [{ type: 'text', text: 'refunded' }] } });
    expect(await store.claim('r1', 'no')).toEqual({ kind: 'refused' });
  });

  it('a claim whose instance is gone lapses with its lease: the waiting re-issue runs the round, and the old owner records nothing', async () => {
    const a = new RedisContinuationStore(connection, { key: 'round-claims-test-key-of-32-bytes!!', claimLeaseMs: 300 });
    const b = new RedisContinuationStore(connection, { key: 'round-claims-test-key-of-32-bytes!!', claimLeaseMs: 300 });
    expect(await a.claim('gone', 'yes')).toEqual({ kind: 'run' });
    // Instance a stops renewing (it died mid-call): b's re-issue waits, then runs the round once the lease lapsed.
    expect(await b.claim('gone', 'yes', AbortSignal.timeout(10_000))).toEqual({ kind: 'run' });
    await a.recordOutcome('gone', { content: [{ type: 'text', text: 'from the lost attempt' }] });
    await b.recordOutcome('gone', { content: [{ type: 'text', text: 'refunded' }] });
    expect(await a.claim('gone', 'yes')).toEqual({ kind: 'done', outcome: { content: [{ type: 'text', text: 'refunded' }] } });
  });

  it('a claim renewed by its running attempt holds past its lease: the re-issue waits for that attempt’s outcome', async () => {
    const a = new RedisContinuationStore(connection, { key: 'round-claims-test-key-of-32-bytes!!', claimLeaseMs: 150 });
    const b = new RedisContinuationStore(connection, { key: 'round-claims-test-key-of-32-bytes!!', claimLeaseMs: 150 });
    expect(await a.claim('held', 'yes')).toEqual({ kind: 'run' });
    const claim = new RoundClaim(a, 'held'); // renews every 50 ms, as a running attempt's does
    const waiting = b.claim('held', 'yes', AbortSignal.timeout(10_000));
    // Let the lease be renewed several times over (each renewal moves the lease's end forward).
    const leaseEnd = async () =>
      (JSON.parse((await connection.client.get('{mcpfusion:state}:round:held')) ?? '{}') as { l?: number }).l ?? 0;
    const first = await leaseEnd();
    let seen = first;
    for (let renewals = 0; renewals < 4;) {
      await new Promise((resolve) => setImmediate(resolve));
      const now = await leaseEnd();
      if (now > seen) {
        renewals++;
        seen = now;
      }
    }
    claim.end({ content: [{ type: 'text', text: 'refunded once' }] }, true);
    expect(await waiting).toEqual({ kind: 'done', outcome: { content: [{ type: 'text', text: 'refunded once' }] } });
  });
});
