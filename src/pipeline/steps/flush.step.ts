import type { CallState } from '../call-state';
import { namedExit, type NamedStep } from './named-step';

/**
 * Around the rest of the call, the timeout included (only the error boundary, the scope and
 * capability checks are outside it): whatever the call sent on the
 * side (progress, log messages) is written before its response, on every transport. A call the
 * client cancelled gets no response, and nothing it produced afterwards leaks out.
 */
export function flushStep(): NamedStep {
  return namedExit('flush', {
    value: (state, value) => (state.progress || state.logPending ? flush(state).then(() => value) : value),
    error: (state, error) => {
      if (state.request.signal?.aborted) state.progress?.discard();
      else if (state.progress || state.logPending) {
        return flush(state).then(() => {
          throw error;
        });
      }
      throw error;
    }
  });
}

function flush(state: CallState): Promise<unknown> {
  return Promise.all([state.progress?.flush(), state.flushLog()]);
}
