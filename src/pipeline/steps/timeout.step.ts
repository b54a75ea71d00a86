import { TimeoutError } from '../../errors';
import { named, type NamedStep } from './named-step';

/** Ends the call (its signal, so every stage stops) after `timeoutMs`; the timer is cleared in `finally`. */
export function timeoutStep(what: string, timeoutMs: number): NamedStep {
  return named('timeout', async (state, next) => {
    const timer = setTimeout(() => state.aborter.abort(new TimeoutError(what, timeoutMs)), timeoutMs);
    try {
      return await next(state);
    } finally {
      clearTimeout(timer);
    }
  });
}
