import { NextCalledTwiceError } from '../errors';
import type { CallState } from './call-state';

/** Runs the rest of a chain for the call whose state it is given (the step's own `state`). */
export type StepNext = (state: CallState) => Promise<unknown>;

/** One stage of a compiled chain: does its part and calls `next(state)` at most once. */
export type Step = (state: CallState, next: StepNext) => unknown;

/**
 * Composes steps into one function, onion style. Before each step but the first the gate
 * checks the call's signal: an aborted call runs no further step. The first step always runs
 * (where it is the error boundary, which must see every failure, an already-aborted call's
 * included), unless `gateFirst`: a compiled chain's inner steps, whose boundary the engine
 * applies around them. Calling `next` twice rejects with NextCalledTwiceError.
 *
 * Each step's `next` is made once, here, and takes the call's state: a call allocates no
 * closure to walk its chain (a call waiting in the queue keeps only its promises). How deep a
 * call went is kept on its state (`stepReached`), which is how a second `next` is told apart.
 */
export function compose(steps: readonly Step[], gateFirst = false): (state: CallState) => Promise<unknown> {
  const gateFrom = gateFirst ? 0 : 1;
  const dispatch = (i: number, state: CallState): Promise<unknown> => {
    if (i <= state.stepReached) return Promise.reject(new NextCalledTwiceError());
    state.stepReached = i;
    if (i >= gateFrom && state.aborter.aborted) return Promise.reject(state.aborter.error());
    const step = steps[i];
    if (!step) return Promise.resolve(undefined);
    try {
      return Promise.resolve(step(state, nexts[i]!));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const nexts: readonly StepNext[] = steps.map((_, i) => (state: CallState) => dispatch(i + 1, state));
  return (state) => dispatch(0, state);
}
