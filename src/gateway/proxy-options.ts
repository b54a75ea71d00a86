import type { Tool } from '@modelcontextprotocol/server';
import type { UpstreamEra } from './upstream-events';

/** Options of {@link proxy}. */
export interface ProxyOptions {
  /**
   * Serve the upstream's tools and prompts as `<namespace>.<name>` and its URIs as `<namespace>+<uri>` (a
   * lowercase letter, then up to 63 lowercase letters, digits or `-`; see `namespaceProblem`). Default: their own names.
   */
  namespace?: string;
  /**
   * The era the gateway speaks to the upstream: `'2025'` (default: `initialize`, one session, a
   * live channel for its questions), `'2026'` (2026-07-28: stateless, questions come back as
   * `input_required`), or `'auto'` (2026-07-28 where the upstream speaks it).
   */
  era?: UpstreamEra;
  /**
   * OAuth scopes a front caller needs for the proxied tools (the same for all, or per upstream
   * tool). Default: none. Checked by this app's chain, as for its own tools.
   */
  scopes?: readonly string[] | ((tool: Tool) => readonly string[]);
  /** Ends a proxied call (and cancels it upstream) after this many milliseconds. Default: none. */
  timeoutMs?: number;
  /** How long an upstream call waits for the user's answer to its question before it is cancelled. Default 600,000 ms. */
  questionTimeoutMs?: number;
  /**
   * Upstream sessions: `'per-front-session'` gives each 2025-era front session an upstream
   * connection (an upstream session) of its own, closed after `sessionIdleMs` of idleness;
   * `'shared'` serves every front client through one. Default: per front session for an HTTP
   * upstream spoken to in the 2025 era (stateful), shared otherwise (a 2026-07-28 upstream is
   * stateless; a stdio upstream would be spawned once per front session). Front clients without
   * a session (2026-07-28, stdio) always use the shared one.
   */
  sessions?: 'per-front-session' | 'shared';
  /** How long a front session's upstream connection stays open with nothing in flight (then it is ended upstream, `DELETE`). Default 600,000 ms. */
  sessionIdleMs?: number;
  /**
   * Upstream sessions of their own the gateway holds at once (with `sessions: 'per-front-session'`).
   * They all come from one caller (the gateway), and servers bound the sessions one caller may hold
   * (one made with this framework: 20 by default), so the gateway keeps below that: when a new
   * front session needs a place, the least recently used upstream session with nothing in flight is
   * ended (`DELETE`); when all are busy, the new front session uses the shared connection. Default 16.
   */
  maxUpstreamSessions?: number;
  /** Diagnostics; default: stderr, prefixed `[mcpfusion gateway]` (never stdout). */
  logger?: (message: string) => void;
}
