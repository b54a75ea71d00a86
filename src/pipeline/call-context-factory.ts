import type { DependencyContainer } from 'tsyringe';
import { callerAuthOf } from '../auth/caller-auth';
import type { CallContext, RequestExtra, ToolInfo } from './call-context';
import type { CallRequest } from './call-request';
import type { CallScope } from './call-scope';
import type { CallState } from './call-state';

/** Makes the app context for one call from the raw request. */
export type ContextFactory = (extra: RequestExtra) => object | undefined | Promise<object | undefined>;

const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The raw arguments of a request (`{}` when it carried none). */
export function argumentsOf(request: CallRequest): Readonly<Record<string, unknown>> {
  return request.arguments ?? EMPTY_ARGS;
}

/**
 * The `extra` handed to `contextFactory` (and `principalOf`), from what the transport said
 * about the request; its `signal` (an own getter, so a spread keeps it) is the call's, made
 * on first read. Made once per call, only when something asks for it.
 */
export function requestExtraOf(state: CallState): RequestExtra {
  if (state.extra) return state.extra;
  const { aborter } = state;
  state.extra = requestExtra(state.request, state.member.info.name, () => aborter.signal);
  return state.extra;
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

const noProgress = (): void => undefined;

/**
 * Builds the per-call context: what `contextFactory(extra)` made (`made`), plus the framework's
 * fields, in one literal; `signal` and `container` are made on first read.
 */
export function createCallContext(state: CallState, scope: CallScope, tool: ToolInfo, made: object | undefined): CallContext {
  const { request, aborter, progress } = state;
  const ctx = {
    ...(made && typeof made === 'object' ? made : {}),
    get signal(): AbortSignal {
      return aborter.signal;
    },
    tool,
    args: argumentsOf(request),
    requestId: request.requestId,
    progress: progress ? (percent: number, message?: string) => progress.report(percent, message) : noProgress,
    log: state.log,
    clientCapabilities: request.clientCapabilities,
    closeStream: request.closeStream,
    // Plain fields (no getters: a context is made per call); `lock` is set by the mutation-lock stage.
    auth: request.authInfo ? callerAuthOf(request.authInfo) : undefined,
    lock: state.lock,
    get container(): DependencyContainer {
      return scope.open();
    }
  } as CallContext;
  scope.ctx = ctx;
  return ctx;
}
