import { abortError } from '../../concurrency/abort';
import { named, type NamedStep } from './named-step';

/**
 * The abort gate. `compose` re-checks the signal before every later step too; this
 * named stage marks where in the chain a queued call that was cancelled stops.
 */
export function abortGateStep(): NamedStep {
  return named('abort-gate', (state, next) => {
    if (state.signal.aborted) throw abortError(state.signal);
    return next();
  });
}
