import type { DependencyContainer } from 'tsyringe';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { CallerAuth } from '../auth/caller-auth';
import type { RequestFacts, ToolInfo } from '../types/core';
import type { CallLogger } from './call-log';

export type { RequestFacts, ToolInfo } from '../types/core';

/** The raw request a call came from, handed to `contextFactory(extra)`. */
export interface RequestExtra extends RequestFacts {
  /** The call's signal: aborted on client cancellation, disconnect, timeout or shutdown. */
  readonly signal: AbortSignal;
  readonly toolName: string;
  /** Raw, unvalidated arguments as received. */
  readonly arguments: Readonly<Record<string, unknown>>;
}

/**
 * The fields the framework puts on every call context. `CallContext<C>` is these plus
 * whatever `contextFactory` returned.
 */
export interface CallContextBase {
  /** Aborted when the call must stop. Pass it to fetch, database drivers and ORMs. */
  readonly signal: AbortSignal;
  readonly tool: ToolInfo;
  /** Raw, unvalidated arguments (middleware sees them before validation). */
  readonly args: Readonly<Record<string, unknown>>;
  readonly requestId?: string | number;
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
   * Redis lock): pass `fencingToken` to your writes so the database can refuse a stale holder's.
   */
  readonly lock?: { readonly fencingToken: number };
  /** Closes this call's resumable SSE stream (see {@link RequestFacts.closeStream}); absent where not supported. */
  readonly closeStream?: () => void;
  /** The call's child container (holds CALL_CONTEXT and CALL_SIGNAL). */
  readonly container: DependencyContainer;
}

/** The per-call context: what `contextFactory(extra)` made, plus the framework fields. */
export type CallContext<C extends object = Record<string, unknown>> = C & CallContextBase;
