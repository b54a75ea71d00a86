import type { ListRootsResult, LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/server';
import type { FrontSessions } from '../../types/front-sessions';

/**
 * The front sessions of the app a set of upstreams (`proxyServers`) is given to, for its
 * upstreams: they connect before the app exists (and again after each reconnect), so each is given
 * this stand-in, which forwards to the app's sessions once the app follows the set. Before that
 * (and after the app stops following it) nothing is delivered, no level is set, and a roots
 * request is refused.
 */
export class LateFrontSessions implements FrontSessions {
  private target: FrontSessions | undefined;
  private unfollow: (() => void) | undefined;
  private readonly listeners = new Set<(sessionId: string | undefined, level: LoggingLevel) => void>();

  /** The app's sessions from now on (undefined: none). */
  attach(target: FrontSessions | undefined): void {
    this.unfollow?.();
    this.target = target;
    this.unfollow = target?.onLevelSet((sessionId, level) => {
      for (const listener of this.listeners) listener(sessionId, level);
    });
  }

  log(message: LoggingMessageNotificationParams, sessionId?: string | null): void {
    this.target?.log(message, sessionId);
  }

  levelOf(sessionId: string): LoggingLevel | undefined {
    return this.target?.levelOf(sessionId);
  }

  lowestLevel(): LoggingLevel | undefined {
    return this.target?.lowestLevel();
  }

  onLevelSet(listener: (sessionId: string | undefined, level: LoggingLevel) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listRoots(sessionId: string, signal?: AbortSignal): Promise<ListRootsResult> {
    return this.target ? this.target.listRoots(sessionId, signal) : Promise.reject(new Error('the gateway serves no front app yet'));
  }
}
