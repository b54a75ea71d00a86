import type { Constructor, ParamKind } from '../../types/core';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * The terminal stage: a fresh instance of the member's class from the call's container (or
 * the app's, where nothing per-call is injected), and its method called with the decorated
 * parameters. `name` says what it does: `invoke-tool`, `read-resource`, `render-prompt` or
 * `list-resources` (a completion ends in the complete-argument step instead).
 */
export function invokeStep(name: string, target: Constructor, methodName: string, params: readonly ParamKind[]): NamedStep {
  const argumentFor = params.map((kind): ((s: CallState) => unknown) =>
    kind === 'input'
      ? (s) => s.input
      : kind === 'signal'
        ? (s) => s.aborter.signal
        : kind === 'inputScope'
          ? (s) => s.inputScope
          : (s) => s.ctx
  );
  return named(name, (state) => {
    const instance = state.resolver().resolve(target) as Record<string, (...args: unknown[]) => unknown>;
    return instance[methodName](...argumentFor.map((get) => get(state)));
  });
}
