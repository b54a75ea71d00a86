import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { FrontSessions } from '../types/front-sessions';
import type { UpstreamConnection } from './upstream-connection';
import type { ConnectionEvents } from './upstream-events';
import type { UpstreamAnswer, UpstreamAsk } from './upstream-call';

/** What {@link FrontTraffic} needs of the gateway's connections (see `GatewayConnections`). */
export interface TrafficConnections {
  /** Aborted when the gateway closes: a roots request to a front client ends with it. */
  readonly signal: AbortSignal;
  /** Whether front sessions get upstream connections of their own. */
  readonly perSession: boolean;
  /** Whether a request may go upstream now. */
  readonly usable: boolean;
  /** The shared connection if one is open or being made. */
  readonly openShared: Promise<UpstreamConnection> | undefined;
  connectionFor(sessionId: string | undefined): Promise<UpstreamConnection>;
}

/**
 * What passes between the upstream and the app's front sessions outside calls: the upstream's log
 * messages (to the front sessions they are for, at their levels), its roots requests (answered by
 * the front session they are for, or refused saying why), and the log levels the front sessions set
 * (forwarded upstream). One per gateway; it follows the front sessions of the app that follows the
 * gateway, once told them (`follow`).
 */
export class FrontTraffic {
  /** The front sessions of the app this gateway serves (told by the app when it follows the gateway), and the end of following their levels. */
  private front: FrontSessions | undefined;
  private unfollowLevels: (() => void) | undefined;

  /** Made by the gateway, for its connections. */
  constructor(
    private readonly label: string,
    private readonly log: (message: string) => void,
    private readonly connections: TrafficConnections
  ) {}

  /** Follows `sessions` (their levels go upstream); the returned function ends that. Undefined when front sessions are followed already. */
  follow(sessions: FrontSessions): (() => void) | undefined {
    if (this.front !== undefined) return undefined;
    this.front = sessions;
    this.unfollowLevels = sessions.onLevelSet((sessionId, level) => this.levelSet(sessionId, level));
    return () => {
      this.stop();
      this.front = undefined;
    };
  }

  /** Stops forwarding the front sessions' levels (the gateway closed). */
  stop(): void {
    this.unfollowLevels?.();
    this.unfollowLevels = undefined;
  }

  /** The events of a connection about front sessions: the shared one's (`sessionId` undefined), or a front session's own. */
  events(sessionId: string | undefined): Pick<ConnectionEvents, 'logged' | 'outsideCall'> {
    return sessionId === undefined ? this.sharedTraffic() : this.sessionTraffic(sessionId);
  }

  /**
   * A connection just opened, told the level it must log at where one was set (not awaited: the
   * request goes out first all the same): its front session's, or for the shared one the lowest any
   * front session set.
   */
  levelled(connection: UpstreamConnection, sessionId: string | undefined): UpstreamConnection {
    const level = sessionId === undefined ? this.front?.lowestLevel() : this.front?.levelOf(sessionId);
    if (level)
      connection
        .setLevel(level)
        .catch((error: unknown) => this.log(`${this.label}: logging/setLevel upstream failed: ${(error as Error).message}`));
    return connection;
  }

  /**
   * What a front session's own upstream connection sends outside its calls: its log messages go
   * to that front session alone (at the session's level), and its roots request is answered with
   * that session's roots (the front client is asked), or refused saying why. A roots request with
   * no call's context is the session's whatever call is in flight (one at the upstream's start
   * often comes during the call that opened the connection): it is not given to that call.
   */
  private sessionTraffic(sessionId: string): Pick<ConnectionEvents, 'logged' | 'outsideCall'> {
    return {
      logged: (message) => this.front?.log(message, sessionId),
      outsideCall: (ask) => {
        if (ask.method !== 'roots/list') return undefined;
        const front = this.front;
        if (!front) return Promise.resolve(refusedRoots('the gateway serves no front app yet'));
        return front.listRoots(sessionId, this.connections.signal).then(
          (result): UpstreamAnswer => ({ result: result as unknown as Record<string, unknown> }),
          (error: unknown) => {
            this.log(`${this.label}: a roots request outside a call was refused: ${(error as Error).message}.`);
            return refusedRoots((error as Error).message);
          }
        );
      }
    };
  }

  /**
   * What the shared connection sends outside its calls. Its log messages go to every front
   * session it serves, each at its own level (all of them; with upstreams per front session, those
   * without a session id); one that came while several calls were in flight over stdio may be one
   * of theirs, and is dropped rather than shown to the others. A roots request is refused: the
   * connection serves every front session, and no one session's roots may stand for the others'
   * (an upstream per front session gets its own).
   */
  private sharedTraffic(): Pick<ConnectionEvents, 'logged' | 'outsideCall'> {
    return {
      logged: (message, ambiguous) => {
        // With upstreams per front session, the shared one serves only the front sessions without an id (stdio).
        if (!ambiguous) this.front?.log(message, this.connections.perSession ? null : undefined);
      },
      outsideCall: (ask: UpstreamAsk, why) => {
        // Before a guess (`why` undefined), the one call in flight over stdio may be the asker: it gets it.
        if (ask.method !== 'roots/list' || why === undefined) return undefined;
        const reason = 'the upstream connection is shared by every front session, so no one front client can answer for the others';
        this.log(`${this.label}: a roots request outside a call was refused: ${reason}.`);
        return Promise.resolve(
          refusedRoots(`${reason} (proxy({ sessions: 'per-front-session' }) gives each 2025-era front session its own)`)
        );
      }
    };
  }

  /**
   * A front session set its log level: forwarded to its own upstream connection (opened for it:
   * what its upstream logs between calls is for it), else to the shared one as the lowest level
   * any front session set (each front session's own level filters what it gets).
   */
  private levelSet(sessionId: string | undefined, level: LoggingLevel): void {
    const failed = (error: unknown) => this.log(`${this.label}: logging/setLevel upstream failed: ${(error as Error).message}`);
    if (!this.connections.usable) return;
    if (sessionId !== undefined && this.connections.perSession) {
      this.connections
        .connectionFor(sessionId)
        .then((connection) => connection.setLevel(level))
        .catch(failed);
      return;
    }
    const lowest = this.front?.lowestLevel();
    const shared = this.connections.openShared;
    if (lowest && shared) shared.then((connection) => connection.setLevel(lowest)).catch(failed);
  }
}

/** A roots request outside a call, refused with the reason. */
function refusedRoots(why: string): UpstreamAnswer {
  return { refused: `The gateway cannot answer roots/list outside a tool call: ${why}.` };
}
