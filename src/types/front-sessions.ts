/**
 * The app's front sessions as a member source (a gateway) reaches them outside a request: types
 * only (a leaf of the import graph).
 */
import type { ListRootsResult, LoggingLevel, LoggingMessageNotificationParams } from '@modelcontextprotocol/server';

/**
 * The front sessions that have a channel outside their requests: 2025-era sessions and stdio
 * connections. A 2026-07-28 client has none (it hears of nothing but what answers its own
 * requests, and gets log messages only for a request that names a `logLevel`), so it is not one.
 */
export interface FrontSessions {
  /**
   * Sends a log message to every front session (`sessionId` undefined), to session `sessionId`
   * only, or (`null`) to those without a session id (a stdio connection), each at its own level
   * (its `logging/setLevel`; a session that set none gets every level, as the SDK's own logging
   * does). A session that is gone, or cannot be written to, is skipped.
   */
  log(message: LoggingMessageNotificationParams, sessionId?: string | null): void;
  /** The level front session `sessionId` set with `logging/setLevel` (undefined: it set none, or it is not a session). */
  levelOf(sessionId: string): LoggingLevel | undefined;
  /**
   * The least severe level that some front session set (what one upstream connection shared by
   * all must send for each to get what it asked for); undefined when none set one.
   */
  lowestLevel(): LoggingLevel | undefined;
  /** Calls `listener` each time a front session sets its level (`sessionId` undefined: a session without an id, stdio); returns the unsubscribe. */
  onLevelSet(listener: (sessionId: string | undefined, level: LoggingLevel) => void): () => void;
  /**
   * Asks front session `sessionId`'s client for its roots (a live `roots/list`). Rejects, saying
   * why, when there is no such session or its client declared no roots.
   */
  listRoots(sessionId: string, signal?: AbortSignal): Promise<ListRootsResult>;
}
