import type { FusionAppOptions } from '@mcpfusion/core';
import { RedisContinuationStore, RedisMutationLock, RedisServerEventBus, connectRedis, type RedisConnection } from '@mcpfusion/core/redis';

/**
 * With `REDIS_URL` set, the desk runs as one instance of a fleet: refunds and the other
 * mutations are serialized across every instance (`RedisMutationLock`), a change on one reaches
 * the listeners of all (`RedisServerEventBus`), and the state of questions in flight lives in
 * Redis (`RedisContinuationStore`, single use across instances). All instances share one
 * `FUSION_STATE_KEY` and one `BILLING_DB` file (WAL mode). Without it the desk runs alone.
 */
export async function fleetFromEnv(
  env: NodeJS.ProcessEnv = process.env
): Promise<{ options: Pick<FusionAppOptions, 'mutationLock' | 'bus' | 'continuationStore'>; redis: RedisConnection } | undefined> {
  const url = env.REDIS_URL?.trim();
  if (!url) return undefined;
  const key = env.FUSION_STATE_KEY;
  if (!key || Buffer.byteLength(key) < 32)
    throw new Error('REDIS_URL needs FUSION_STATE_KEY (at least 32 bytes), the same on every instance.');
  const redis = await connectRedis(url, { onError: (error) => process.stderr.write(`[billing-desk] redis: ${error.message}\n`) });
  return {
    redis,
    options: {
      mutationLock: new RedisMutationLock(redis),
      bus: await RedisServerEventBus.create(redis),
      continuationStore: new RedisContinuationStore(redis, { key })
    }
  };
}
