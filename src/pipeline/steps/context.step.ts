import type { DependencyContainer } from 'tsyringe';
import { createCallContext, type ContextFactory } from '../call-context-factory';
import { named, type NamedStep } from './named-step';

export type { ContextFactory } from '../call-context-factory';

/** Builds the per-call child container and context (see {@link createCallContext}). */
export function contextStep(root: DependencyContainer, factory: ContextFactory | undefined): NamedStep {
  return named('context', async (state, next) => {
    const { ctx, container } = await createCallContext(root, factory, state.extra, state.tool.info, state.progress, state.log);
    state.ctx = ctx;
    state.container = container;
    return next();
  });
}
