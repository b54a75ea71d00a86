import type { PrincipalOf, RequestExtra } from '../types/context';
import type { RequestFacts } from '../types/core';
import { defaultPrincipalOf } from './caller-auth';

/**
 * A request as far as it is known when its caller is named: its facts, and, once the request is
 * a call of a member, that member's name, the raw arguments and the request's signal. A session
 * bound at `initialize`, a request's telemetry, a task's owner are named before (or without) a call.
 */
export interface KnownRequest extends RequestFacts {
  /** What is called (a tool or prompt name, a resource URI), once known. */
  readonly subject?: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
}

/** Names a request's caller (the principal continuations, tasks and sessions are bound to), or none. */
export type NamePrincipal = (request: KnownRequest) => string | undefined;

const NO_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The one function that names callers, from the app's `principalOf` (default:
 * `defaultPrincipalOf` of the token). `principalOf` sees the request's own facts; what a request
 * does not know yet reads as nothing: no tool name (`''`), no arguments (`{}`), a signal that
 * never aborts.
 */
export function principalNamer(principalOf: PrincipalOf | undefined): NamePrincipal {
  // Without an app's own, only the token matters: no `extra` is made.
  if (!principalOf) return (request) => defaultPrincipalOf(request.authInfo);
  return (request) => principalOf(extraOf(request));
}

/**
 * The `extra` of a request, the one builder of it: what `principalOf` and `contextFactory`
 * receive. `signalOf` gives its `signal` (an own getter, so a spread keeps it): a call's own,
 * made on first read; for a request that is not a call, the request's, or one that never aborts.
 * What the request does not know yet reads as nothing: no tool name (`''`), no arguments (`{}`).
 */
export function requestExtraOf(request: KnownRequest, signalOf: () => AbortSignal, toolName: string = request.subject ?? ''): RequestExtra {
  return {
    get signal(): AbortSignal {
      return signalOf();
    },
    toolName,
    arguments: request.arguments ?? NO_ARGUMENTS,
    requestId: request.requestId,
    meta: request.meta,
    authInfo: request.authInfo,
    httpRequest: request.httpRequest,
    sessionId: request.sessionId,
    era: request.era,
    clientCapabilities: request.clientCapabilities,
    closeStream: request.closeStream
  };
}

/**
 * The `extra` `principalOf` reads: the request's own signal, or one that never aborts. That one is
 * made on first read, once per request (so `extra.signal` is the same object each time), never at
 * module level: a Cloudflare Worker forbids making an `AbortController` in global scope.
 */
function extraOf(request: KnownRequest): RequestExtra {
  let neverAborted: AbortSignal | undefined;
  return requestExtraOf(request, () => request.signal ?? (neverAborted ??= new AbortController().signal));
}
