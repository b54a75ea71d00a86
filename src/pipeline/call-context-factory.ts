import type { DependencyContainer } from 'tsyringe';
import { callerAuthOf } from '../auth/caller-auth';
import type { CallAbort } from '../concurrency/call-abort';
import type { CallContext, RequestExtra } from '../types/context';
import type { ToolInfo } from '../types/core';
import type { LockGrant } from '../types/lock';
import type { CallRequest } from '../types/request';
import type { CallScope } from './call-scope';
import type { LogChannel } from './call-log';

const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The raw arguments of a request (`{}` when it carried none). */
export function argumentsOf(request: CallRequest): Readonly<Record<string, unknown>> {
  return request.arguments ?? EMPTY_ARGS;
}

/** The `extra` of a request: what the transport said about it, with `signal` read (an own getter) from `signalOf`. */
export function requestExtra(request: CallRequest, toolName: string, signalOf: () => AbortSignal): RequestExtra {
  return {
    get signal(): AbortSignal {
      return signalOf();
    },
    toolName,
    arguments: argumentsOf(request),
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
 * Builds the per-call context before the chain runs: the framework's fields in one literal
 * (`signal` and `container` made on first read, `progress` reading the call's current channel);
 * the context step adds what `contextFactory` made, and the mutation-lock step the `lock`.
 */
export function createCallContext(
  request: CallRequest,
  args: Readonly<Record<string, unknown>>,
  tool: ToolInfo,
  aborter: CallAbort,
  log: LogChannel,
  scope: CallScope,
  progress: (percent: number, message?: string) => void
): CallContext {
  const ctx = {
    get signal(): AbortSignal {
      return aborter.signal;
    },
    tool,
    args,
    requestId: request.requestId,
    progress,
    log,
    clientCapabilities: request.clientCapabilities,
    closeStream: request.closeStream,
    // Plain fields (no getters: a context is made per call); `lock` is set by the mutation-lock stage.
    auth: request.authInfo ? callerAuthOf(request.authInfo) : undefined,
    lock: undefined as LockGrant | undefined,
    get container(): DependencyContainer {
      return scope.open();
    }
  } as CallContext;
  scope.ctx = ctx;
  return ctx;
}
