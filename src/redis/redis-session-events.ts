import { randomUUID } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';
import type { SessionResumption } from '../transports/http/session-registry';
import type { RedisConnection } from './redis-connection';

/** Options of {@link RedisSessionEvents}. */
export interface RedisSessionEventsOptions {
  /** How long a session's events are kept after the last one, in ms. Default 1,800,000 (the idle expiry of a session). */
  ttlMs?: number;
  /** The most events kept per stream. Default 1000. */
  maxEventsPerStream?: number;
  /** Key prefix. Default `mcpfusion:events`. */
  prefix?: string;
}

/**
 * The event stores of 2025-era sessions in Redis, so that a session's broken stream is resumed
 * (`Last-Event-ID`) on any instance of a fleet, not only the one holding the session: the
 * `sessions` option `{ eventStore: events.eventStore, resume: events.resume }`. Each session's
 * store writes its events (one list per stream, bounded, with a TTL) and who the session is for;
 * an instance that does not hold the session answers a resuming GET by replaying what the
 * stream missed, for the caller the session is bound to, and ends the stream there.
 */
export class RedisSessionEvents {
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly prefix: string;

  /** `options`: the TTL, per-stream bound and key prefix; every instance of a fleet uses the same prefix. */
  constructor(
    private readonly redis: RedisConnection,
    options: RedisSessionEventsOptions = {}
  ) {
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.max = options.maxEventsPerStream ?? 1000;
    this.prefix = `{${options.prefix ?? 'mcpfusion:events'}}`;
  }

  /** A new session's event store (the `sessions.eventStore` factory). */
  readonly eventStore = (): EventStore & {
    /** Binds the store to its session and the session's caller, once the session has an id. */
    bindSession(sessionId: string, owner: string | undefined): void;
  } => {
    const scope = randomUUID();
    let bound = false;
    return {
      bindSession: (sessionId, owner) => {
        bound = true;
        void this.redis.client
          .set(this.metaKey(scope), JSON.stringify({ s: sessionId, o: owner ?? null }), { PX: this.ttlMs })
          .catch(() => undefined);
      },
      storeEvent: async (streamId: StreamId, message: JSONRPCMessage): Promise<EventId> => {
        const seq = await this.redis.client.incr(`${this.prefix}:seq:${scope}`);
        const id = `${scope}|${encodeURIComponent(streamId)}|${seq}`;
        const key = this.streamKey(scope, streamId);
        await this.redis.client
          .multi()
          .rPush(key, JSON.stringify({ id, m: message }))
          .lTrim(key, -this.max, -1)
          .pExpire(key, this.ttlMs)
          .pExpire(`${this.prefix}:seq:${scope}`, this.ttlMs)
          .exec();
        if (bound) void this.redis.client.pExpire(this.metaKey(scope), this.ttlMs).catch(() => undefined);
        return id;
      },
      getStreamIdForEventId: async (eventId: EventId): Promise<StreamId | undefined> => parseEventId(eventId)?.streamId,
      replayEventsAfter: async (lastEventId, { send }): Promise<StreamId> => {
        const parsed = parseEventId(lastEventId);
        if (!parsed || parsed.scope !== scope) throw new Error(`Unknown or expired event id ${lastEventId}`);
        await this.replay(parsed.scope, parsed.streamId, lastEventId, send);
        return parsed.streamId;
      }
    };
  };

  /**
   * What the session registry asks for a resuming GET of a session this instance does not hold
   * (the `sessions.resume` option): the session the event belongs to and its owner, and the replay.
   */
  readonly resume = async (lastEventId: string): Promise<SessionResumption | undefined> => {
    const parsed = parseEventId(lastEventId);
    if (!parsed) return undefined;
    const meta = await this.redis.client.get(this.metaKey(parsed.scope));
    if (meta === null) return undefined;
    const bound = JSON.parse(meta) as { s: string; o: string | null };
    return {
      sessionId: bound.s,
      owner: bound.o ?? undefined,
      replay: (send) => this.replay(parsed.scope, parsed.streamId, lastEventId, send)
    };
  };

  private async replay(
    scope: string,
    streamId: string,
    lastEventId: string,
    send: (eventId: EventId, message: JSONRPCMessage) => Promise<void>
  ): Promise<void> {
    const stored = (await this.redis.client.lRange(this.streamKey(scope, streamId), 0, -1)).map(
      (entry) => JSON.parse(entry) as { id: string; m: JSONRPCMessage }
    );
    const index = stored.findIndex((event) => event.id === lastEventId);
    if (index < 0) throw new Error(`Unknown or expired event id ${lastEventId}`);
    for (const event of stored.slice(index + 1)) await send(event.id, event.m);
  }

  private streamKey(scope: string, streamId: string): string {
    return `${this.prefix}:stream:${scope}:${encodeURIComponent(streamId)}`;
  }

  private metaKey(scope: string): string {
    return `${this.prefix}:session:${scope}`;
  }
}

/** An event id of this store: `<scope>|<stream id, encoded>|<sequence>`. */
function parseEventId(eventId: string): { scope: string; streamId: string } | undefined {
  const match = /^([0-9a-f-]{36})\|([^|]+)\|\d+$/.exec(eventId);
  if (!match) return undefined;
  try {
    return { scope: match[1], streamId: decodeURIComponent(match[2]) };
  } catch {
    return undefined;
  }
}
