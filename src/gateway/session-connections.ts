import { ConfigurationError } from '../errors';
import type { UpstreamConnection } from './upstream-connection';
import type { ConnectionEvents } from './upstream-events';

/** The default of `ProxyOptions.maxUpstreamSessions`: below the 20 sessions per caller a server made with this framework allows by default. */
export const DEFAULT_MAX_UPSTREAM_SESSIONS = 16;

interface Entry {
  readonly connection: Promise<UpstreamConnection>;
  /** The connection once open (an entry still connecting is never evicted). */
  opened?: UpstreamConnection;
  idle?: ReturnType<typeof setTimeout>;
}

/**
 * One upstream connection (one upstream session) per front session, for a stateful upstream:
 * what one front client sets up there (its subscriptions, its state in the upstream's tools)
 * is not another's. A pool with a cap, least recently used first out: every upstream session
 * comes from the same caller (the gateway), and a server bounds the sessions one caller may hold
 * (this framework: 20 by default), so the gateway never holds more than `max` at once.
 *
 * A connection is opened on its front session's first request and ended (`DELETE` upstream) when
 * it has been idle for `idleMs` (nothing in flight: the front session's end is not signalled to
 * the gateway, so idleness stands for it), or when a new front session needs its place and it is
 * the least recently used one with nothing in flight. When all `max` are busy, `open` returns
 * undefined and the caller uses the shared connection.
 */
export class SessionConnections {
  /** In order of use, least recently used first (a Map keeps insertion order: a use re-inserts). */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly connect: (events: Pick<ConnectionEvents, 'closed'>, sessionId: string) => Promise<UpstreamConnection>,
    private readonly idleMs: number,
    private readonly max: number = DEFAULT_MAX_UPSTREAM_SESSIONS
  ) {}

  /** How many front sessions have an upstream session now. */
  get size(): number {
    return this.entries.size;
  }

  /** The connection of front session `sessionId` (opened on first use), or undefined when every place is busy. */
  open(sessionId: string): Promise<UpstreamConnection> | undefined {
    let entry = this.entries.get(sessionId);
    if (entry) this.entries.delete(sessionId);
    else {
      if (this.entries.size >= this.max && !this.evictOne()) return undefined;
      const connection = this.connect({ closed: () => this.forget(sessionId, connection) }, sessionId).catch((error: unknown) => {
        this.forget(sessionId, connection);
        throw error;
      });
      const created: Entry = { connection };
      void connection.then(
        (opened) => (created.opened = opened),
        () => undefined
      );
      entry = created;
    }
    this.entries.set(sessionId, entry);
    this.arm(sessionId, entry);
    return entry.connection;
  }

  /** Closes every session's connection. */
  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) clearTimeout(entry.idle);
    await Promise.allSettled(entries.map((entry) => entry.connection.then((connection) => connection.close())));
  }

  /** Ends the least recently used connection with nothing in flight; false when there is none. */
  private evictOne(): boolean {
    for (const [sessionId, entry] of this.entries) {
      const connection = entry.opened;
      if (!connection || connection.busy) continue;
      clearTimeout(entry.idle);
      this.entries.delete(sessionId);
      void connection.close();
      return true;
    }
    return false;
  }

  /** (Re)starts a session's idle clock; when it runs out with calls still in flight, it starts again. */
  private arm(sessionId: string, entry: Entry): void {
    // The same timer started again (every call of the session arms it: no new timer each time).
    if (typeof (entry.idle as NodeJS.Timeout | undefined)?.refresh === 'function') return void (entry.idle as NodeJS.Timeout).refresh();
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      void entry.connection.then(
        (connection) => {
          if (this.entries.get(sessionId) !== entry) return;
          if (connection.busy) return this.arm(sessionId, entry);
          this.entries.delete(sessionId);
          void connection.close();
        },
        () => undefined
      );
    }, this.idleMs);
    entry.idle.unref?.();
  }

  private forget(sessionId: string, connection: Promise<UpstreamConnection>): void {
    const entry = this.entries.get(sessionId);
    if (entry?.connection !== connection) return;
    clearTimeout(entry.idle);
    this.entries.delete(sessionId);
  }
}

/** `maxUpstreamSessions`, checked: a positive integer. */
export function maxUpstreamSessions(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_UPSTREAM_SESSIONS;
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`proxy(): maxUpstreamSessions must be a positive integer (got ${String(value)}).`);
  return value;
}
