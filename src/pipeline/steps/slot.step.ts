import type { Release } from '../../concurrency/slot-gate';
import type { CallState } from '../call-state';
import { named, type NamedStep } from './named-step';

/**
 * A stage that holds a slot around the rest of the chain: acquired (abortably) before, and
 * released in `finally`. The rest of the chain races the abort, so whatever is stuck inside
 * (a middleware, a context factory, a handler that ignores its signal) cannot keep the slot
 * once the call is aborted.
 */
export function slotStep(name: string, acquire: (state: CallState) => Release | Promise<Release>): NamedStep {
  return named(name, async (state, next) => {
    const release = await acquire(state);
    try {
      return await state.aborter.race(next());
    } finally {
      release();
    }
  });
}
