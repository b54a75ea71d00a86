/**
 * `@mcpfusion/core/redis`: the coordination pieces for several instances on Redis (the official
 * `redis` package, an optional peer dependency). Single-process apps never load this subpath.
 */
export { connectRedis } from './redis-connection';
export type { RedisConnection, RedisConnectionOptions } from './redis-connection';
export { LockUnavailableError } from './lock-unavailable-error';
export type { RedisMutationLockOptions } from './redis-lock-options';
export { RedisMutationLock } from './redis-mutation-lock';
export { RedisServerEventBus } from './redis-event-bus';
export { RedisContinuationStore } from './redis-continuation-store';
export type { RedisContinuationStoreOptions } from './redis-continuation-store';
export { RedisTaskStore } from './redis-task-store';
export { RedisSessionEvents } from './redis-session-events';
export type { RedisSessionEventsOptions } from './redis-session-events';
