import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
import type { RedisConnection } from './redis-connection';

const KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

/**
 * Change notifications across instances (the SDK's `ServerEventBus` over Redis pub/sub): what
 * one instance publishes (`app.notifyResourceUpdated`, tool classes changed at run time) reaches
 * the listeners of every instance subscribed to the channel, itself included, and from them
 * the 2026-era listen streams and 2025-era sessions it holds. Delivery is at most once, as
 * pub/sub is: an instance disconnected from Redis misses what was published meanwhile.
 */
export class RedisServerEventBus implements ServerEventBus {
  private readonly listeners = new Set<(event: ServerEvent) => void>();

  private constructor(
    private readonly redis: RedisConnection,
    private readonly channel: string,
    private readonly onerror: (error: Error) => void
  ) {}

  /** Subscribes to the channel (default `mcpfusion:events`) before it resolves, so nothing published after it is missed. */
  static async create(
    redis: RedisConnection,
    options: { channel?: string; onerror?: (error: Error) => void } = {}
  ): Promise<RedisServerEventBus> {
    const bus = new RedisServerEventBus(redis, options.channel ?? 'mcpfusion:events', options.onerror ?? (() => undefined));
    const subscriber = await redis.subscriber();
    await subscriber.subscribe(bus.channel, (message: string) => bus.deliver(message));
    return bus;
  }

  publish(event: ServerEvent): void {
    this.redis.client.publish(this.channel, JSON.stringify(event)).catch((error: unknown) => this.onerror(error as Error));
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** A message off the channel: only the events the bus knows, as published. */
  private deliver(message: string): void {
    let event: ServerEvent;
    try {
      event = JSON.parse(message) as ServerEvent;
    } catch {
      return;
    }
    if (!event || typeof event !== 'object' || !KINDS.has(event.kind)) return;
    if (event.kind === 'resource_updated' && typeof event.uri !== 'string') return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.onerror(error as Error);
      }
    }
  }
}
