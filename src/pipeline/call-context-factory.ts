import type { DependencyContainer } from 'tsyringe';
import { raceAbort } from '../concurrency/abort';
import { CALL_CONTEXT, CALL_SIGNAL } from '../di/tokens';
import type { CallContext, RequestExtra, ToolInfo } from './call-context';
import type { CallLogger } from './call-log';
import type { ProgressChannel } from './progress';

/** Makes the app context for one call from the raw request. */
export type ContextFactory = (extra: RequestExtra) => object | undefined | Promise<object | undefined>;

const noProgress = (): void => undefined;

/**
 * Builds the per-call child container and context: what `contextFactory(extra)` made, plus
 * the framework's fields, registered under CALL_CONTEXT; the signal under CALL_SIGNAL.
 */
export async function createCallContext(
  root: DependencyContainer,
  factory: ContextFactory | undefined,
  extra: RequestExtra,
  tool: ToolInfo,
  progress: ProgressChannel | undefined,
  log: CallLogger
): Promise<{ ctx: CallContext; container: DependencyContainer }> {
  const container = root.createChildContainer();
  const made = factory ? await raceAbort(Promise.resolve(factory(extra)), extra.signal) : undefined;
  const ctx: CallContext = Object.assign(made && typeof made === 'object' ? { ...made } : {}, {
    signal: extra.signal,
    tool,
    args: extra.arguments,
    requestId: extra.requestId,
    progress: progress ? (percent: number, message?: string) => progress.report(percent, message) : noProgress,
    log,
    clientCapabilities: extra.clientCapabilities,
    closeStream: extra.closeStream,
    container
  });
  container.register(CALL_CONTEXT, { useValue: ctx });
  container.register(CALL_SIGNAL, { useValue: extra.signal });
  return { ctx, container };
}
