import { ToolError } from '../../errors';
import { isInputRound } from '../../interactive/require-input';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * The handler stage as the one that decides the call's outcome: when the handler (or, for a
 * generator, its driver) returns, or throws a `ToolError` (the handler's own answer: a refusal,
 * a "no"), the outcome is decided (`CallAbort.decide`) and no later abort changes it. A request
 * for input decides nothing (the call goes on in a later round, and sealing it still ends with
 * the call), and neither does anything else it throws: the attempt failed (an exactly-once round
 * is given back). Keeps the wrapped step's name: the chain as described does not change.
 */
export function decidingStep(step: NamedStep): NamedStep {
  const run = step.run;
  return named(step.name, (state, next) => {
    let out: unknown;
    try {
      out = run(state, next);
    } catch (error) {
      return failed(state, error);
    }
    if (!isThenable(out)) {
      if (!isInputRound(out)) state.aborter.decide();
      return out;
    }
    return out.then(
      (value) => {
        if (!isInputRound(value)) state.aborter.decide();
        return value;
      },
      (error: unknown) => failed(state, error)
    );
  });
}

function failed(state: CallState, error: unknown): Promise<never> {
  if (error instanceof ToolError) state.aborter.decide();
  return Promise.reject(error);
}

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
