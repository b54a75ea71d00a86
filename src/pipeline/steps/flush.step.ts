import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * The outermost stage: whatever the call sent on the side (progress, log messages) is written
 * before its response, on every transport. A call the client cancelled gets no response, and
 * nothing it produced afterwards leaks out.
 */
export function flushStep(): NamedStep {
  return named('flush', async (state, next) => {
    try {
      const value = await next();
      if (state.progress || state.log.pendingWrites) await flush(state);
      return value;
    } catch (error) {
      if (state.upstream?.aborted) state.progress?.discard();
      else if (state.progress || state.log.pendingWrites) await flush(state);
      throw error;
    }
  });
}

function flush(state: CallState): Promise<unknown> {
  return Promise.all([state.progress?.flush(), state.log.flush()]);
}
