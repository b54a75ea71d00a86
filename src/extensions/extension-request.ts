/**
 * The request an extension's parts receive (`ExtensionRequest`), and the one place it is made
 * from a request as the transport served it.
 */
import type { AuthInfo, ClientCapabilities } from '@modelcontextprotocol/server';
import type { Era } from '../types/core';
import type { ServedRequest } from '../types/request';
import type { TraceLinks } from '../types/telemetry';
import { isPlainJsonObject, ownValue } from '../wire/own-properties';

/**
 * One request to a method an extension serves, or to one of its resources: the raw params
 * (untrusted: check them and throw `InvalidParamsError`, from `@mcpfusion/core/advanced`, for -32602), and what is known of the
 * caller. `clientSettings` is the client's opt-in, read per request: on 2026-07-28 the settings
 * the request's `_meta` client capabilities declare under `extensions[id]`; on a 2025-era
 * connection those its `initialize` declared; `undefined` when the client did not opt in.
 *
 * The facts below `clientSettings` say who asks and on what (the app's `principalOf` reads the
 * same ones): everything the client sent in them is untrusted, as the params are.
 */
export interface ExtensionRequest {
  /** The method called (`skills/list`), or `resources/read` for a resource the extension serves. */
  readonly method: string;
  /** The request's params as sent (untrusted); `{}` when it had none. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The protocol era of the connection. */
  readonly era: Era;
  /** Aborted when the client cancels or goes away: pass it to whatever waits. */
  readonly signal: AbortSignal;
  /** The caller's validated token, on HTTP with `auth`. */
  readonly authInfo?: AuthInfo;
  /** Everything the client declared for this request. */
  readonly clientCapabilities?: ClientCapabilities;
  /** The client's settings for this extension, or `undefined` when it did not opt in (see above). */
  readonly clientSettings: Readonly<Record<string, unknown>> | undefined;
  /** The request's JSON-RPC id (absent for requests that have none, such as `app.callTool`'s). */
  readonly requestId?: string | number;
  /** The request's `_meta`, envelope keys lifted out (untrusted). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The HTTP request it came in, on HTTP transports (its headers are untrusted). */
  readonly httpRequest?: Request;
  /** The 2025-era session it belongs to, when there is one. */
  readonly sessionId?: string;
  /** The client's network address (HTTP). */
  readonly remoteAddress?: string;
  /**
   * Answers to requests for input the request carried (`inputResponses`; the SDK lifts them out of
   * the params, as for a retried round), raw and untrusted.
   */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The request's telemetry, where the app records it: link it to an earlier request (see {@link TraceLinks}). */
  readonly trace?: TraceLinks;
}

/**
 * The request an extension `id` receives for `method` with `params` (untrusted: `{}` unless a
 * plain object), from the request as the transport served it (internal: the one builder).
 */
export function extensionRequestOf(
  id: string,
  method: string,
  params: unknown,
  served: ServedRequest,
  signal: AbortSignal
): ExtensionRequest {
  const settings = ownValue(ownValue(served.clientCapabilities, 'extensions'), id);
  return {
    method,
    params: isPlainJsonObject(params) ? params : {},
    era: served.era ?? 'modern',
    signal,
    authInfo: served.authInfo,
    clientCapabilities: served.clientCapabilities,
    clientSettings: isPlainJsonObject(settings) ? settings : undefined,
    requestId: served.requestId,
    meta: served.meta,
    httpRequest: served.httpRequest,
    sessionId: served.sessionId,
    remoteAddress: served.remoteAddress,
    inputResponses: served.inputResponses,
    trace: served.trace
  };
}
