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
      await Promise.all([state.progress?.flush(), state.log.flush()]);
      return value;
    } catch (error) {
      if (state.upstream?.aborted) state.progress?.discard();
      else await Promise.all([state.progress?.flush(), state.log.flush()]);
      throw error;
    }
  });
}
