import { NextCalledTwiceError } from '../errors';
import type { CallState } from './call-state';

/** One stage of a compiled chain: does its part and calls `next()` at most once. */
export type Step = (state: CallState, next: () => Promise<unknown>) => unknown;

/**
 * Composes steps into one function, onion style. Before each step but the first the gate
 * checks the call's signal: an aborted call runs no further step. The first step always runs
 * (in a compiled chain it is the error boundary, which must see every failure, an
 * already-aborted call's included). Calling `next()` twice rejects with NextCalledTwiceError.
 */
export function compose(steps: readonly Step[]): (state: CallState) => Promise<unknown> {
  return (state) => {
    let index = -1;
    const dispatch = (i: number): Promise<unknown> => {
      if (i <= index) return Promise.reject(new NextCalledTwiceError());
      index = i;
      if (i > 0 && state.aborter.aborted) return Promise.reject(state.aborter.error());
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
