import type { ConnectionEvents, UpstreamConnection } from './upstream-connection';

/** How many front sessions get an upstream session of their own at once; later ones share the gateway's. */
const MAX_SESSIONS = 256;

interface Entry {
  readonly connection: Promise<UpstreamConnection>;
  idle?: ReturnType<typeof setTimeout>;
}

/**
 * One upstream connection (one upstream session) per front session, for a stateful upstream:
 * what one front client sets up there (its subscriptions, its state in the upstream's tools)
 * is not another's. A connection is opened on the session's first request, and closed once it
 * has been idle for `idleMs` (nothing in flight): the front session's end is not signalled to
 * the gateway, so idleness stands for it. Beyond {@link MAX_SESSIONS} sessions, `open` returns
 * undefined and the caller uses the shared connection.
 */
export class SessionConnections {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly connect: (events: Pick<ConnectionEvents, 'closed'>) => Promise<UpstreamConnection>,
    private readonly idleMs: number
  ) {}

  /** How many front sessions have an upstream session now. */
  get size(): number {
    return this.entries.size;
  }

  /** The connection of front session `sessionId` (opened on first use), or undefined when there are too many. */
  open(sessionId: string): Promise<UpstreamConnection> | undefined {
    let entry = this.entries.get(sessionId);
    if (!entry) {
      if (this.entries.size >= MAX_SESSIONS) return undefined;
      const connection = this.connect({ closed: () => this.forget(sessionId, connection) }).catch((error: unknown) => {
        this.forget(sessionId, connection);
        throw error;
      });
      entry = { connection };
      this.entries.set(sessionId, entry);
    }
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

  /** (Re)starts a session's idle clock; when it runs out with calls still in flight, it starts again. */
  private arm(sessionId: string, entry: Entry): void {
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
