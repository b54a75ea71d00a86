import type { FusionAppOptions, ListenOptions } from '@mcpfusion/core';
import {
  RedisContinuationStore,
  RedisMutationLock,
  RedisServerEventBus,
  RedisSessionEvents,
  RedisTaskStore,
  connectRedis,
  type RedisConnection
} from '@mcpfusion/core/redis';

/**
 * With `REDIS_URL` set, the desk runs as one instance of a fleet: mutations are serialized across
 * every instance (`RedisMutationLock`: refunds and adjustments per invoice, reports.rebuild app-wide), a change on one reaches
 * the listeners of all (`RedisServerEventBus`), and the state of questions in flight lives in
 * Redis (`RedisContinuationStore`, single use across instances), and so do task records
 * (`RedisTaskStore`). All instances share one
 * `FUSION_STATE_KEY` and one database: PostgreSQL (`DATABASE_URL`: instances on any machine), or one
 * `BILLING_DB` SQLite file (WAL mode: instances on one machine only). Without it the desk runs alone.
 */
/** What an instance of the fleet shares with the others. */
export type FleetOptions = Pick<FusionAppOptions, 'mutationLock' | 'bus' | 'continuationStore' | 'tasks'>;

/** The 2025-era session options of a fleet instance (`listen({ sessions })`). */
type ListenSessions = Extract<ListenOptions, { transport: 'http' }>['sessions'];

export async function fleetFromEnv(
  env: NodeJS.ProcessEnv = process.env
): Promise<{ options: FleetOptions; sessions: NonNullable<ListenSessions>; redis: RedisConnection } | undefined> {
  const url = env.REDIS_URL?.trim();
  if (!url) return undefined;
  const key = env.FUSION_STATE_KEY;
  if (!key || Buffer.byteLength(key) < 32)
    throw new Error('REDIS_URL needs FUSION_STATE_KEY (at least 32 bytes), the same on every instance.');
  const redis = await connectRedis(url, { onError: (error) => process.stderr.write(`[billing-desk] redis: ${error.message}\n`) });
  // 2025-era sessions keep their events in Redis: a broken stream resumes (Last-Event-ID) on any instance.
  const events = new RedisSessionEvents(redis);
  return {
    redis,
    sessions: { eventStore: events.eventStore, resume: events.resume },
    options: {
      mutationLock: new RedisMutationLock(redis),
      bus: await RedisServerEventBus.create(redis),
      continuationStore: new RedisContinuationStore(redis, { key }),
      // Task records in Redis: a task started on one instance is polled, answered and cancelled on any.
      tasks: { store: new RedisTaskStore(redis), ttlMs: 24 * 3_600_000 }
    }
  };
}
