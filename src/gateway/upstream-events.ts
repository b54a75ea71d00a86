import type { LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import type { UpstreamAnswer, UpstreamAsk } from './upstream-call';

/** The protocol era a gateway speaks to its upstream: `'2025'` (initialize, a live channel), `'2026'` (2026-07-28), or `'auto'` (the SDK's negotiation). */
export type UpstreamEra = '2025' | '2026' | 'auto';

/** What a connection tells its gateway. */
export interface ConnectionEvents {
  /** The upstream's tool, prompt or resource list changed. */
  readonly toolsChanged: () => void;
  /** A resource the gateway subscribed to upstream changed (its upstream URI). */
  readonly resourceUpdated: (uri: string) => void;
  /** The connection closed (the upstream died or hung up); `reason` says how. */
  readonly closed: (reason: Error) => void;
  /** Diagnostics (stderr by default: never stdout). */
  readonly log: (message: string) => void;
  /** A call found the upstream unreachable (its HTTP endpoint refused the connection): the upstream is down, though no channel closed. */
  readonly unreachable?: (error: Error) => void;
  /**
   * A log message that belongs to no call (the upstream logged between calls, or on its own
   * stream); `ambiguous` when calls were in flight over a connection that cannot say whose it is
   * (stdio), so it may be one call's.
   */
  readonly logged?: (message: LoggingMessageNotificationParams, ambiguous: boolean) => void;
  /**
   * A request of the client that no call's context names: asked first with `why` undefined
   * (before the one call in flight is guessed for it), then, when no call can be named, with
   * `why`. Answered by the returned promise, or left to the call or refused (undefined).
   */
  readonly outsideCall?: (ask: UpstreamAsk, why: string | undefined) => Promise<UpstreamAnswer> | undefined;
}
