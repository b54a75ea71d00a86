import { ConfigurationError } from '../errors';
import type { ProxyOptions } from './proxy-options';
import { SessionConnections, maxUpstreamSessions } from './session-connections';
import { UpstreamConnection } from './upstream-connection';
import type { ConnectionEvents } from './upstream-events';
import { describeTarget, type ResolvedTarget } from './upstream-target';

/**
 * How a set of upstreams (`proxyServers`) follows one of its servers: told when its connection is
 * lost (or cannot be made), and asked before each request whether the upstream is known down (then
 * the request fails at once with that error instead of waiting for a connection).
 */
export interface ServerHooks {
  readonly lost?: (reason: Error) => void;
  readonly refuse?: () => Error | undefined;
}

/** What the gateway puts into the connections {@link GatewayConnections} opens, and hears from them. */
export interface ConnectionWiring {
  /** What a connection tells the gateway: the shared one's (`sessionId` undefined) or a front session's own. */
  events(sessionId: string | undefined): Pick<ConnectionEvents, 'resourceUpdated' | 'toolsChanged' | 'logged' | 'outsideCall'>;
  /** A connection just opened, for the shared one (`sessionId` undefined) or a front session; returns it once set up. */
  opened(connection: UpstreamConnection, sessionId: string | undefined): UpstreamConnection;
  /** A new shared connection is being made (the gateway may list again once it is up). */
  sharedOpening(connection: Promise<UpstreamConnection>): void;
  /** The shared connection closed: what was tied to it (subscriptions, parked calls) goes with it. */
  sharedClosed(reason: Error): void;
}

/**
 * The upstream connections of one gateway, and which one a front request goes through: the shared
 * one (reconnected on the next request after the upstream dies), or a front session's own (see
 * `ProxyOptions.sessions`). Kept apart from the gateway's listing so that what is open, closed or
 * refused is decided in one place; the gateway says what each connection's events do.
 */
export class GatewayConnections {
  private current: Promise<UpstreamConnection> | undefined;
  /** Front sessions' own upstream connections (see `ProxyOptions.sessions`). */
  private readonly sessions: SessionConnections;
  private closed = false;
  /** Aborted on close: connections still being made are abandoned (see `UpstreamConnection.open`). */
  private readonly closing = new AbortController();

  /** Made by the gateway, which owns it and closes it. */
  constructor(
    private readonly target: ResolvedTarget,
    private readonly options: ProxyOptions,
    private readonly label: string,
    private readonly log: (message: string) => void,
    private readonly hooks: ServerHooks,
    private readonly wiring: ConnectionWiring
  ) {
    this.sessions = new SessionConnections(
      ({ closed }, sessionId) =>
        UpstreamConnection.open(
          this.target,
          this.options.era ?? '2025',
          { log: this.log, unreachable: (error) => this.hooks.lost?.(error), closed, ...this.wiring.events(sessionId) },
          this.closing.signal
        ).then((connection) => this.wiring.opened(connection, sessionId)),
      this.options.sessionIdleMs ?? 600_000,
      maxUpstreamSessions(this.options.maxUpstreamSessions)
    );
  }

  /** Aborted when the gateway closes: what waits on a front client for an upstream ends with it. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  /** Front sessions with an upstream session of their own now. */
  get upstreamSessions(): number {
    return this.sessions.size;
  }

  /** Whether the gateway closed them (for good). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Whether a request may go upstream now: the gateway is open, and its set does not know the upstream down. */
  get usable(): boolean {
    return !this.closed && !this.hooks.refuse?.();
  }

  /** The shared connection if one is open or being made (none is opened for the asking). */
  get openShared(): Promise<UpstreamConnection> | undefined {
    return this.current;
  }

  /** Whether front sessions get upstream sessions of their own (see `ProxyOptions.sessions`). */
  get perSession(): boolean {
    const { sessions, era } = this.options;
    return (
      (sessions ?? (this.target.kind === 'http' && (era ?? '2025') === '2025' ? 'per-front-session' : 'shared')) === 'per-front-session'
    );
  }

  /** The connection a front request goes through: its session's own (see `ProxyOptions.sessions`), else the shared one. */
  connectionFor(sessionId: string | undefined): Promise<UpstreamConnection> {
    if (this.closed) return Promise.reject(new ConfigurationError(`${this.label} is closed.`));
    const refused = this.hooks.refuse?.();
    if (refused) return Promise.reject(refused);
    const own = sessionId && this.perSession ? this.sessions.open(sessionId) : undefined;
    // In a set, an upstream session that cannot be opened says the upstream is down, as the shared connection's failure does.
    if (own && this.hooks.lost)
      return own.catch((error: unknown) => {
        this.hooks.lost?.(error as Error);
        throw error;
      });
    return own ?? this.shared();
  }

  /** The open shared connection, or a new one (after the upstream died); a failure to connect is the caller's error, and the next try connects again. */
  shared(): Promise<UpstreamConnection> {
    if (this.closed) return Promise.reject(new ConfigurationError(`${this.label} is closed.`));
    const refused = this.hooks.refuse?.();
    if (refused) return Promise.reject(refused);
    if (this.current) return this.current;
    this.current = UpstreamConnection.open(
      this.target,
      this.options.era ?? '2025',
      {
        log: this.log,
        unreachable: (error) => this.hooks.lost?.(error),
        ...this.wiring.events(undefined),
        closed: (reason) => {
          this.current = undefined;
          this.wiring.sharedClosed(reason);
          if (this.hooks.lost) this.hooks.lost(reason);
          else this.log(`upstream ${describeTarget(this.target)}: ${reason.message}; reconnecting on the next call.`);
        }
      },
      this.closing.signal
    )
      .then((connection) => this.wiring.opened(connection, undefined))
      .catch((error: unknown) => {
        this.current = undefined;
        this.hooks.lost?.(error as Error);
        throw error;
      });
    this.wiring.sharedOpening(this.current);
    return this.current;
  }

  /** Closes every connection, and abandons those being made (at once, before the first await). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    const current = this.current;
    this.current = undefined;
    await Promise.allSettled([current?.then((connection) => connection.close()), this.sessions.closeAll()]);
  }
}
