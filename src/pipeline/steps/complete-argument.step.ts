import type { Completer } from '../../metadata/types';
import type { Constructor } from '../../types/core';
import { named, type NamedStep } from './named-step';

/**
 * The terminal stage of a completion: the completer function, or the method of the member's
 * class (resolved per call, so it can use injected services), with the value typed so far and
 * the other arguments (`ctx.args` for a method).
 */
export function completeArgumentStep(target: Constructor, completer: Completer | string): NamedStep {
  return named('complete-argument', (state) => {
    const value = String(state.input ?? '');
    if (typeof completer === 'function') return completer(value, { arguments: state.args as Record<string, string> });
    const instance = state.resolver().resolve(target) as Record<string, (...args: unknown[]) => unknown>;
    return instance[completer](value, state.ctx);
  });
}
