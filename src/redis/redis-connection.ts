import type { RedisClientType } from 'redis';
import { ConfigurationError } from '../errors';

/** Options of {@link connectRedis}. */
export interface RedisConnectionOptions {
  /** How long the first connection may take before startup fails, in ms. Default 5,000. */
  connectTimeoutMs?: number;
  /** The longest wait between two reconnection attempts, in ms (the backoff doubles up to it). Default 2,000. */
  maxReconnectDelayMs?: number;
  /** Where connection errors go after startup (default: dropped; the client reconnects by itself). */
  onError?: (error: Error) => void;
}

/** A Redis client for commands and, made on first need, one for subscriptions (a subscribed client runs no commands). */
export interface RedisConnection {
  /** The client for commands. */
  readonly client: RedisClientType;
  /** The client for subscriptions: made and connected on the first call, then reused (a failed attempt is retried on the next call). */
  subscriber(): Promise<RedisClientType>;
  /** Closes both clients. */
  close(): Promise<void>;
}

/**
 * Connects to Redis (the official `redis` package, an optional peer dependency: only apps that
 * use this subpath install it). Fails with a clear error when Redis is unreachable at startup;
 * afterwards it reconnects with a doubling backoff, and commands fail at once while it is down
 * (no offline queue: a call that needs Redis gets an error instead of hanging).
 */
export async function connectRedis(url: string, options: RedisConnectionOptions = {}): Promise<RedisConnection> {
  let redis: typeof import('redis');
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional peer dependency, loaded only here
    redis = require('redis') as typeof import('redis');
  } catch {
    throw new ConfigurationError("@mcpfusion/core/redis needs the 'redis' package: npm install redis");
  }
  const maxDelay = options.maxReconnectDelayMs ?? 2_000;
  const make = (): RedisClientType =>
    redis.createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 5_000,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, maxDelay)
      }
    }) as unknown as RedisClientType;
  const client = make();
  let started = false;
  client.on('error', (error: Error) => {
    if (started) options.onError?.(error);
  });
  try {
    await connectOnce(client, options.connectTimeoutMs ?? 5_000);
  } catch (error) {
    await client.destroy?.();
    throw new ConfigurationError(`Redis at ${redactedUrl(url)} is unreachable: ${(error as Error).message}`);
  }
  started = true;
  let subscriber: Promise<RedisClientType> | undefined;
  return {
    client,
    subscriber() {
      return (subscriber ??= (async () => {
        // Made on first need; while Redis is down that need fails now rather than waiting for it.
        if (!client.isReady) throw new Error('Redis is not connected');
        const sub = client.duplicate() as RedisClientType;
        sub.on('error', (error: Error) => options.onError?.(error));
        try {
          await connectOnce(sub, options.connectTimeoutMs ?? 5_000);
        } catch (error) {
          await Promise.resolve(sub.destroy()).catch(() => undefined);
          throw error;
        }
        return sub;
      })().catch((error: unknown) => {
        subscriber = undefined;
        throw error;
      }));
    },
    async close() {
      const sub = subscriber ? await subscriber.catch(() => undefined) : undefined;
      // A client that is not connected (Redis down, reconnecting) is destroyed: closing would wait for it.
      const end = (c: RedisClientType | undefined) => (c ? (c.isReady ? c.close() : Promise.resolve(c.destroy())) : undefined);
      await Promise.allSettled([end(client), end(sub)]);
    }
  };
}

/** The first connection, or a failure after `timeoutMs` (the client would otherwise retry forever). */
async function connectOnce(client: RedisClientType, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
    client.once('error', (error: Error) => reject(error));
  });
  try {
    await Promise.race([client.connect(), failed]);
  } finally {
    clearTimeout(timer);
  }
}

function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(an invalid URL)';
  }
}
