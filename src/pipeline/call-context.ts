import type { DependencyContainer } from 'tsyringe';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { MemberKind } from '../metadata/types';
import type { CallLogger } from './call-log';

/** What a call knows about the tool (or prompt, or resource) it runs. */
export interface ToolInfo {
  readonly name: string;
  readonly kind: MemberKind;
  readonly interactive: boolean;
  readonly className: string;
  readonly methodName: string;
}

/** What is known about the request behind a call. */
export interface RequestFacts {
  /** JSON-RPC id (absent for calls made through the test harness). */
  readonly requestId?: string | number;
  /** The request's `_meta` (progress token and so on), envelope keys lifted out. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Validated auth info, when the HTTP layer set it. */
  readonly authInfo?: AuthInfo;
  /** The HTTP request, on HTTP transports. */
  readonly httpRequest?: Request;
  /** The 2025-era session id, when there is one. */
  readonly sessionId?: string;
  /** The protocol era of the connection (absent for calls made through the test harness). */
  readonly era?: 'legacy' | 'modern';
  /** What the client declared it can do (per request on 2026-07-28; from `initialize` on 2025-era connections). */
  readonly clientCapabilities?: ClientCapabilities;
  /**
   * Closes the SSE stream this request is answered on, where the transport can resume it
   * (2025-era HTTP sessions, which keep an event store): the client reconnects with
   * `Last-Event-ID` and receives the rest, the response included. Absent elsewhere.
   */
  readonly closeStream?: () => void;
}

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
  /** Closes this call's resumable SSE stream (see {@link RequestFacts.closeStream}); absent where not supported. */
  readonly closeStream?: () => void;
  /** The call's child container (holds CALL_CONTEXT and CALL_SIGNAL). */
  readonly container: DependencyContainer;
}

/** The per-call context: what `contextFactory(extra)` made, plus the framework fields. */
export type CallContext<C extends object = Record<string, unknown>> = C & CallContextBase;
