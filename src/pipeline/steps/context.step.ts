import type { DependencyContainer } from 'tsyringe';
import { createCallContext, type ContextFactory } from '../call-context-factory';
import { named, type NamedStep } from './named-step';

export type { ContextFactory } from '../call-context-factory';

/** Builds the call's context, and its child container where the member needs one (see {@link createCallContext}). */
export function contextStep(root: DependencyContainer, factory: ContextFactory | undefined, perCall: boolean): NamedStep {
  return named('context', async (state, next) => {
    const { ctx, scope } = await createCallContext(
      root,
      factory,
      state.extra,
      state.member.info,
      state.progress,
      state.log,
      perCall,
      state.aborter
    );
    state.ctx = ctx;
    state.scope = scope;
    return next();
  });
}
