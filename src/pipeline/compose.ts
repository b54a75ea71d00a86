import { NextCalledTwiceError } from '../errors';
import type { CallState } from './call-state';

/** One stage of a compiled chain: does its part and calls `next()` at most once. */
export type Step = (state: CallState, next: () => Promise<unknown>) => unknown;

/**
 * Composes steps into one function, onion style. Before each step the gate checks
 * the call's signal: an aborted call runs no further step. Calling `next()` twice
 * rejects with NextCalledTwiceError.
 */
export function compose(steps: readonly Step[]): (state: CallState) => Promise<unknown> {
  return (state) => {
    let index = -1;
    const dispatch = (i: number): Promise<unknown> => {
      if (i <= index) return Promise.reject(new NextCalledTwiceError());
      index = i;
      if (state.aborter.aborted) return Promise.reject(state.aborter.error());
      const step = steps[i];
      if (!step) return Promise.resolve(undefined);
      try {
        return Promise.resolve(step(state, () => dispatch(i + 1)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return dispatch(0);
  };
}
