import type { ListRootsResult, LoggingLevel, LoggingMessageNotificationParams, Server } from '@modelcontextprotocol/server';
import type { Era } from '../types/core';
import type { FrontSessions } from '../types/front-sessions';

/** A connected server instance that outlives one request (a 2025-era session, a stdio connection). */
interface LiveServer {
  readonly server: Server;
  readonly era: Era;
  readonly subscriptions: Set<string>;
  /** The level its client set with `logging/setLevel` (undefined: none, every level is sent). */
  level?: LoggingLevel;
}

/** The protocol's log levels, least severe first. */
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * The app's long-lived server instances, so the app can push change notifications to them:
 * `notifications/resources/updated` to the ones subscribed to a URI (2025-era), and
 * `list_changed` to all. Per-request 2026-era HTTP instances are not kept; their
 * notifications go through the HTTP handler's notifier.
 */
export class LiveServers implements FrontSessions {
  private readonly servers = new Set<LiveServer>();
  private readonly byServer = new Map<Server, LiveServer>();
  private readonly levelListeners = new Set<(sessionId: string | undefined, level: LoggingLevel) => void>();

  add(server: Server, era: Era): Set<string> {
    const live: LiveServer = { server, era, subscriptions: new Set() };
    this.servers.add(live);
    this.byServer.set(server, live);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(live);
      this.byServer.delete(server);
      previous?.();
    };
    return live.subscriptions;
  }

  /**
   * A front session set its level (`logging/setLevel` on `server`): its log messages, in calls
   * and between them, are filtered by it from now on, and the member sources that follow levels
   * (a gateway forwards it upstream) are told.
   */
  setLevel(server: Server, level: LoggingLevel): void {
    const live = this.byServer.get(server);
    if (!live) return;
    live.level = level;
    for (const listener of this.levelListeners) listener(server.transport?.sessionId, level);
  }

  /** Whether a message at `level` is below what `server`'s client asked for (it set a higher level). */
  isBelowLevel(server: Server, level: LoggingLevel): boolean {
    const set = this.byServer.get(server)?.level;
    return set !== undefined && LEVELS.indexOf(level) < LEVELS.indexOf(set);
  }

  /** See {@link FrontSessions.log}: 2025-era instances only (a 2026-07-28 client gets log messages only in answer to a request that asked). */
  log(message: LoggingMessageNotificationParams, sessionId?: string | null): void {
    for (const live of this.servers) {
      if (live.era !== 'legacy' || !live.server.transport) continue;
      if (sessionId !== undefined && live.server.transport.sessionId !== (sessionId ?? undefined)) continue;
      if (this.isBelowLevel(live.server, message.level)) continue;
      void live.server.notification({ method: 'notifications/message', params: message }).catch(() => undefined);
    }
  }

  /** See {@link FrontSessions.levelOf}. */
  levelOf(sessionId: string): LoggingLevel | undefined {
    return this.session(sessionId)?.level;
  }

  /** See {@link FrontSessions.lowestLevel}. */
  lowestLevel(): LoggingLevel | undefined {
    let lowest: number | undefined;
    for (const live of this.servers) if (live.level !== undefined) lowest = Math.min(lowest ?? LEVELS.length, LEVELS.indexOf(live.level));
    return lowest === undefined ? undefined : LEVELS[lowest];
  }

  /** See {@link FrontSessions.onLevelSet}. */
  onLevelSet(listener: (sessionId: string | undefined, level: LoggingLevel) => void): () => void {
    this.levelListeners.add(listener);
    return () => this.levelListeners.delete(listener);
  }

  /** See {@link FrontSessions.listRoots}. */
  async listRoots(sessionId: string, signal?: AbortSignal): Promise<ListRootsResult> {
    const live = this.session(sessionId);
    if (!live) throw new Error(`front session ${sessionId} is gone`);
    if (live.server.getClientCapabilities()?.roots === undefined) throw new Error('the front client declared no roots capability');
    return live.server.listRoots(undefined, signal ? { signal } : undefined);
  }

  /** The live 2025-era session with this id. */
  private session(sessionId: string): LiveServer | undefined {
    for (const live of this.servers) if (live.era === 'legacy' && live.server.transport?.sessionId === sessionId) return live;
    return undefined;
  }

  get size(): number {
    return this.servers.size;
  }

  /** Sends `notifications/resources/updated` where it is wanted: subscribed 2025-era instances, and 2026-era stdio (it filters itself). */
  resourceUpdated(uri: string): void {
    for (const live of this.servers) {
      if (live.era === 'modern' || live.subscriptions.has(uri)) void live.server.sendResourceUpdated({ uri }).catch(() => undefined);
    }
  }

  /** Sends the list-changed notification of a surface to every live instance. */
  listChanged(surface: 'tools' | 'resources' | 'prompts'): void {
    for (const { server } of this.servers) {
      const send =
        surface === 'tools'
          ? server.sendToolListChanged()
          : surface === 'resources'
            ? server.sendResourceListChanged()
            : server.sendPromptListChanged();
      void Promise.resolve(send).catch(() => undefined);
    }
  }
}
