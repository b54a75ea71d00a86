import type { DependencyContainer } from 'tsyringe';
import { callerAuthOf } from '../auth/caller-auth';
import { CALL_AUTH, CALL_CONTEXT, CALL_SIGNAL } from '../di/tokens';
import type { CallAbort } from '../concurrency/call-abort';
import type { CallContext } from '../types/context';
import type { ToolInfo } from '../types/core';
import type { LockGrant } from '../types/lock';
import type { CallRequest } from '../types/request';
import type { LogChannel } from './call-log';

const EMPTY_ARGS: Readonly<Record<string, unknown>> = Object.freeze({});

/** The raw arguments of a request (`{}` when it carried none). */
export function argumentsOf(request: CallRequest): Readonly<Record<string, unknown>> {
  return request.arguments ?? EMPTY_ARGS;
}

/** What a call context is made from and reads on demand: the call's state (`CallState`). */
export interface ContextSource {
  readonly request: CallRequest;
  readonly args: Readonly<Record<string, unknown>>;
  readonly member: { readonly info: ToolInfo };
  readonly aborter: CallAbort;
  readonly log: LogChannel;
  /** The call's own child container (opened on first use). */
  openScope(): DependencyContainer;
}

/**
 * The framework's part of a call's context: plain fields, and `signal` and `container` as
 * getters of the class (made on first read), so that making a context allocates one object and no
 * closures (an object literal with getters costs a closure per getter and a slow definition, per
 * call). The context step adds what `contextFactory` made, the mutation-lock step the `lock`.
 */
class FrameworkContext {
  readonly #call: ContextSource;
  readonly requestId: CallRequest['requestId'];
  readonly sessionId: CallRequest['sessionId'];
  readonly clientCapabilities: CallRequest['clientCapabilities'];
  readonly closeStream: CallRequest['closeStream'];
  readonly auth: CallContext['auth'];
  readonly requestSignal: AbortSignal | undefined;
  readonly args: Readonly<Record<string, unknown>>;
  readonly tool: ToolInfo;
  readonly log: LogChannel;
  lock: LockGrant | undefined;

  constructor(
    call: ContextSource,
    readonly progress: (percent: number, message?: string) => void
  ) {
    const request = call.request;
    this.#call = call;
    this.args = call.args;
    this.tool = call.member.info;
    this.log = call.log;
    this.requestId = request.requestId;
    this.sessionId = request.sessionId;
    this.clientCapabilities = request.clientCapabilities;
    this.closeStream = request.closeStream;
    this.auth = request.authInfo ? callerAuthOf(request.authInfo) : undefined;
    // Only a 2025-era interactive call's request outlives its rounds (see CallContextBase.requestSignal).
    this.requestSignal = this.tool.interactive && request.era === 'legacy' ? request.signal : undefined;
    this.lock = undefined;
  }

  /** The call's signal (made on first read). */
  get signal(): AbortSignal {
    return this.#call.aborter.signal;
  }

  /** The call's own container (opened on first read). */
  get container(): DependencyContainer {
    return this.#call.openScope();
  }
}

/** Builds a call's context, on its first read (see {@link FrameworkContext}). */
export function createCallContext(call: ContextSource, progress: (percent: number, message?: string) => void): CallContext {
  return new FrameworkContext(call, progress) as unknown as CallContext;
}

/**
 * A call's own child container of `root`: it holds the context (CALL_CONTEXT), the signal
 * (CALL_SIGNAL) and the caller's auth (CALL_AUTH). Opened by the context step where the member's
 * classes inject them (`perCall`, decided at startup), or when the handler reads `ctx.container`;
 * disposing it disposes the child's `Disposable` instances (tsyringe `dispose`).
 */
export function callContainer(root: DependencyContainer, ctx: CallContext, aborter: CallAbort): DependencyContainer {
  const child = root.createChildContainer();
  child.register(CALL_CONTEXT, { useValue: ctx });
  child.register(CALL_SIGNAL, { useFactory: () => aborter.signal });
  child.register(CALL_AUTH, { useFactory: () => ctx.auth });
  return child;
}
