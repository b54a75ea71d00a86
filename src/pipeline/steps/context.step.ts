import type { DependencyContainer } from 'tsyringe';
import { createCallContext, requestExtraOf, type ContextFactory } from '../call-context-factory';
import { CallScope } from '../call-scope';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

export type { ContextFactory } from '../call-context-factory';

/**
 * Builds the call's context (with what `contextFactory` made, awaited and raced against the
 * abort), and its child container where the member needs one (see {@link CallScope}).
 * Without a factory nothing is awaited here.
 */
export function contextStep(root: DependencyContainer, factory: ContextFactory | undefined, perCall: boolean): NamedStep {
  const enter = (state: CallState, made: object | undefined): void => {
    const scope = new CallScope(root, state.aborter);
    state.scope = scope;
    state.ctx = createCallContext(state, scope, state.member.info, made);
    if (perCall) scope.open();
  };
  if (!factory) {
    return named('context', (state, next) => {
      enter(state, undefined);
      return next();
    });
  }
  return named('context', async (state, next) => {
    const made = await state.aborter.race(Promise.resolve(factory(requestExtraOf(state))));
    enter(state, made);
    return next();
  });
}
