/**
 * The per-call context and the request facts a user's code sees: types only (a leaf of the
 * import graph, see test/unit/layers.test.ts).
 */
import type { AuthInfo, ClientCapabilities } from '@modelcontextprotocol/server';
import type { DependencyContainer } from 'tsyringe';
import type { RequestFacts, ToolInfo } from './core';
import type { LockGrant } from './lock';

/** Log levels, least to most severe (the protocol's syslog levels). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * The context logger (`ctx.log`): sends `notifications/message` to the client that made the
 * call. The client's level applies (`logging/setLevel` on 2025-era sessions; the per-request
 * `logLevel` on 2026-07-28, where no level means no messages). Messages are written before
 * the response. For the server's own diagnostics use stderr (the app's `logger` option).
 */
export interface CallLogger {
  /** A message at any level, optionally naming the logger. */
  message(level: LogLevel, data: unknown, logger?: string): void;
  /** A message at `debug` level. */
  debug(data: unknown): void;
  /** A message at `info` level. */
  info(data: unknown): void;
  /** A message at `warning` level. */
  warning(data: unknown): void;
  /** A message at `error` level. */
  error(data: unknown): void;
}

/**
 * Who is calling, as the verified token says (`ctx.auth`, and `CALL_AUTH` through DI). The raw
 * token is not part of it: a server must not pass the client's token on to other services.
 */
export interface CallerAuth {
  /** The token's subject (`sub`), where the verifier gives one (`jwtVerifier` does). */
  readonly subject?: string;
  /** The OAuth client the token was issued to. */
  readonly clientId: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** Every claim of the token, as verified (empty for verifiers that give none). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** The resource the token was issued for, where the verifier says. */
  readonly resource?: URL;
}

/** The raw request a call came from, handed to `contextFactory(extra)` and `principalOf(extra)`. */
export interface RequestExtra extends RequestFacts {
  /** The call's signal: aborted on client cancellation, disconnect, timeout or shutdown. */
  readonly signal: AbortSignal;
  /** The name of the tool (or prompt, or resource) the request calls. */
  readonly toolName: string;
  /** Raw, unvalidated arguments as received. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * The fields the framework puts on every call context. `CallContext<C>` is these plus
 * whatever `contextFactory` returned (which may not return any of these names: refused).
 */
export interface CallContextBase {
  /** Aborted when the call must stop. Pass it to fetch, database drivers and ORMs. */
  readonly signal: AbortSignal;
  /** The member this call runs (its name, kind, class and method, scopes). */
  readonly tool: ToolInfo;
  /** Raw, unvalidated arguments (middleware sees them before validation). */
  readonly args: Readonly<Record<string, unknown>>;
  /** The JSON-RPC id of the request (absent for calls made through the test harness). */
  readonly requestId?: string | number;
  /** The 2025-era session the request came in (`Mcp-Session-Id`); absent on 2026-07-28, stdio and the harness. */
  readonly sessionId?: string;
  /** Reports progress from any handler (generators can `yield progress(...)` instead). */
  progress(percent: number, message?: string): void;
  /** Sends log messages to the client (`notifications/message`), subject to its level. */
  readonly log: CallLogger;
  /** What the client declared it can do, when known. */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * Who is calling, from the verified bearer token (HTTP with `auth`, or `authInfo` in the
   * harness): subject, client id, scopes, expiry, claims. Undefined without a token (stdio).
   */
  readonly auth?: CallerAuth;
  /**
   * The mutation lock's grant, for a mutation run under a lock that gives fencing tokens (the
   * default lock and the Redis lock do): the keys held (empty for an app-wide mutation) and each
   * key's fencing token. Pass the token to your writes so the database can refuse a stale
   * holder's (`UPDATE … WHERE fence < $token`).
   */
  readonly lock?: LockGrant;
  /** Closes this call's resumable SSE stream (see {@link RequestFacts.closeStream}); absent where not supported. */
  readonly closeStream?: () => void;
  /**
   * The signal of the request an interactive call runs in, where that request outlives a round of
   * questions: on a 2025-era live channel a question is asked and answered within the one request,
   * so this aborts when the client cancels it or goes away while a question is out (`signal` is the
   * round's). What a call parks across its rounds (a gateway's upstream call) ends with it.
   * Undefined on 2026-07-28 (each round is a request of its own), for tools that are not
   * interactive, and in the test harness.
   */
  readonly requestSignal?: AbortSignal;
  /** The call's child container (holds CALL_CONTEXT and CALL_SIGNAL). */
  readonly container: DependencyContainer;
}

/** The names of {@link CallContextBase}: a `contextFactory` may not return any of them. */
export type ReservedContextField = keyof CallContextBase;

/** The per-call context: what `contextFactory(extra)` made, plus the framework fields. */
export type CallContext<C extends object = Record<string, unknown>> = C & CallContextBase;

/** Makes the app's part of the per-call context from the raw request. */
export type ContextFactory = (extra: RequestExtra) => object | undefined | Promise<object | undefined>;

/** What identifies a caller (`principalOf`), from the raw request. */
export type PrincipalOf = (extra: RequestExtra) => string | undefined;

/** A verified token, as the SDK's verifiers give it. */
export type { AuthInfo };
