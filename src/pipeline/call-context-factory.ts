import type { DependencyContainer } from 'tsyringe';
import type { CallAbort } from '../concurrency/call-abort';
import { CALL_CONTEXT, CALL_SIGNAL } from '../di/tokens';
import type { CallContext, RequestExtra, ToolInfo } from './call-context';
import type { CallLogger } from './call-log';
import type { ProgressChannel } from './progress';

/** Makes the app context for one call from the raw request. */
export type ContextFactory = (extra: RequestExtra) => object | undefined | Promise<object | undefined>;

/** Where a call's classes are resolved from, and its end. */
export interface CallScope {
  /** The call's child container where one exists, else the app's. */
  resolver(): DependencyContainer;
  /** Disposes the call's child container, if one was made (tsyringe `dispose`: `Disposable` instances are disposed). */
  dispose(): Promise<void> | void;
}

const noProgress = (): void => undefined;

/**
 * Builds the per-call context: what `contextFactory(extra)` made, plus the framework's fields.
 * A child container holding the context (CALL_CONTEXT) and the signal (CALL_SIGNAL) is made at
 * once when the member's classes inject them (`perCall`, decided at startup), else only if the
 * handler reads `ctx.container`.
 */
export async function createCallContext(
  root: DependencyContainer,
  factory: ContextFactory | undefined,
  extra: RequestExtra,
  tool: ToolInfo,
  progress: ProgressChannel | undefined,
  log: CallLogger,
  perCall: boolean,
  aborter: CallAbort
): Promise<{ ctx: CallContext; scope: CallScope }> {
  const made = factory ? await aborter.race(Promise.resolve(factory(extra))) : undefined;
  let child: DependencyContainer | undefined;
  const open = (): DependencyContainer => {
    if (child) return child;
    child = root.createChildContainer();
    child.register(CALL_CONTEXT, { useValue: ctx });
    child.register(CALL_SIGNAL, { useFactory: () => aborter.signal });
    return child;
  };
  // One literal: the app's fields, then the framework's; `signal` and `container` are made on first read.
  const ctx = {
    ...(made && typeof made === 'object' ? made : {}),
    get signal(): AbortSignal {
      return aborter.signal;
    },
    tool,
    args: extra.arguments,
    requestId: extra.requestId,
    progress: progress ? (percent: number, message?: string) => progress.report(percent, message) : noProgress,
    log,
    clientCapabilities: extra.clientCapabilities,
    closeStream: extra.closeStream,
    get container(): DependencyContainer {
      return open();
    }
  } as CallContext;
  if (perCall) open();
  return {
    ctx,
    scope: {
      resolver: () => child ?? root,
      dispose: () => child?.dispose()
    }
  };
}
