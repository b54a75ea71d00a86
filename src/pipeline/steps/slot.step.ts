import type { LockRelease } from '../../concurrency/fifo-mutex';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * A stage that holds a slot around the rest of the chain: acquired (abortably) before, and
 * released in `finally`. The rest of the chain races the abort, so whatever is stuck inside
 * (a middleware, a context factory, a handler that ignores its signal) cannot keep the slot
 * once the call is aborted. A release that returns a promise (the Redis lock's, so that the next
 * holder goes first: see `LockRelease`) becomes the call's `answerAfter`: the error boundary waits
 * for it once the outcome is decided, out of reach of every stage's abort (an abort in that turn
 * cannot turn a mutation that ran into a cancelled call).
 */
export function slotStep(name: string, acquire: (state: CallState) => LockRelease | Promise<LockRelease>): NamedStep {
  return named(name, async (state, next) => {
    const release = await acquire(state);
    try {
      return await state.aborter.race(next());
    } finally {
      const after = release();
      if (after) state.answerAfter = after;
    }
  });
}
