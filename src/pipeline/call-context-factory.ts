import type { DependencyContainer } from 'tsyringe';
import { callerAuthOf } from '../auth/caller-auth';
import type { CallAbort } from '../concurrency/call-abort';
import type { CallContext } from '../types/context';
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

/**
 * The framework's part of a call's context: plain fields, and `signal` and `container` as
 * getters of the class (made on first read), so that making a context allocates one object and no
 * closures (an object literal with getters costs a closure per getter and a slow definition, per
 * call). The context step adds what `contextFactory` made, the mutation-lock step the `lock`.
 */
class FrameworkContext {
  readonly #aborter: CallAbort;
  readonly #scope: CallScope;
  readonly requestId: CallRequest['requestId'];
  readonly sessionId: CallRequest['sessionId'];
  readonly clientCapabilities: CallRequest['clientCapabilities'];
  readonly closeStream: CallRequest['closeStream'];
  readonly auth: CallContext['auth'];
  readonly requestSignal: AbortSignal | undefined;
  lock: LockGrant | undefined;

  constructor(
    request: CallRequest,
    readonly args: Readonly<Record<string, unknown>>,
    readonly tool: ToolInfo,
    aborter: CallAbort,
    readonly log: LogChannel,
    scope: CallScope,
    readonly progress: (percent: number, message?: string) => void
  ) {
    this.#aborter = aborter;
    this.#scope = scope;
    this.requestId = request.requestId;
    this.sessionId = request.sessionId;
    this.clientCapabilities = request.clientCapabilities;
    this.closeStream = request.closeStream;
    this.auth = request.authInfo ? callerAuthOf(request.authInfo) : undefined;
    // Only a 2025-era interactive call's request outlives its rounds (see CallContextBase.requestSignal).
    this.requestSignal = tool.interactive && request.era === 'legacy' ? request.signal : undefined;
    this.lock = undefined;
  }

  /** The call's signal (made on first read). */
  get signal(): AbortSignal {
    return this.#aborter.signal;
  }

  /** The call's own container (opened on first read). */
  get container(): DependencyContainer {
    return this.#scope.open();
  }
}

/** Builds the per-call context before the chain runs (see {@link FrameworkContext}). */
export function createCallContext(
  request: CallRequest,
  args: Readonly<Record<string, unknown>>,
  tool: ToolInfo,
  aborter: CallAbort,
  log: LogChannel,
  scope: CallScope,
  progress: (percent: number, message?: string) => void
): CallContext {
  const ctx = new FrameworkContext(request, args, tool, aborter, log, scope, progress) as unknown as CallContext;
  scope.ctx = ctx;
  return ctx;
}
