import type { DependencyContainer } from 'tsyringe';
import { CALL_CONTEXT, CALL_SIGNAL } from '../../di/tokens';
import type { CallContext, RequestExtra } from '../call-context';
import { named, type NamedStep } from './named-step';

/** Makes the app context for one call from the raw request. */
export type ContextFactory = (extra: RequestExtra) => object | undefined | Promise<object | undefined>;

const noProgress = (): void => undefined;

/**
 * Builds the per-call child container and context: what `contextFactory(extra)` made,
 * plus `signal`, `tool`, `args`, `requestId`, `progress` and `container`, registered
 * under CALL_CONTEXT; the signal under CALL_SIGNAL.
 */
export function contextStep(root: DependencyContainer, factory: ContextFactory | undefined): NamedStep {
  return named('context', async (state, next) => {
    const container = root.createChildContainer();
    const made = factory ? await factory(state.extra) : undefined;
    const channel = state.progress;
    const ctx: CallContext = Object.assign(made && typeof made === 'object' ? { ...made } : {}, {
      signal: state.signal,
      tool: state.tool.info,
      args: state.extra.arguments,
      requestId: state.extra.requestId,
      progress: channel ? (percent: number, message?: string) => channel.report(percent, message) : noProgress,
      container
    });
    container.register(CALL_CONTEXT, { useValue: ctx });
    container.register(CALL_SIGNAL, { useValue: state.signal });
    state.ctx = ctx;
    state.container = container;
    return next();
  });
}
