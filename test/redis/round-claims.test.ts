import { connectRedis, RedisContinuationStore, type RedisConnection } from '../../src/redis';
import { describeWithRedis, startRedis, type RedisServer } from '../helpers/redis-server';

/**
 * The rounds of exactly-once members as a fleet shares them (a real redis-server): a round given
 * back by a failed attempt runs again with its own answers only; another fingerprint is refused.
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
});
