import type { ErrorBoundary } from '../error-boundary';
import type { CallKind } from '../../types/core';
import type { CallState, OutcomeMapping } from '../call-state';
import type { NamedStep } from './named-step';

/** The error boundary as the chain's first step: its name, its mapping, and the step that applies it. */
export interface ErrorBoundaryStep extends NamedStep, OutcomeMapping {}

export type { OutcomeMapping } from '../call-state';

/**
 * The outermost step of every chain: every failure of the call, whatever step or handler threw
 * it, leaves through the one error boundary (an `isError` result, a task's outcome, or a
 * thrown JSON-RPC error); in task mode the result is the task's outcome too. It maps and does
 * nothing else.
 *
 * In a compiled chain the engine applies the mapping itself, in the one reaction that ends the
 * call (`CallEngine.run`: the chain's inner steps, then `answer` or `failure`, then `finish`),
 * rather than through a step of its own: a call waiting in the queue keeps one promise, one
 * reaction and two closures fewer, and its cancellation one hop. `run` is the same mapping as a
 * step, for a chain composed by hand.
 */
export function errorBoundaryStep(boundary: ErrorBoundary, kind: CallKind): ErrorBoundaryStep {
  const answer = (state: CallState, value: unknown): unknown => (state.mode === 'task' ? boundary.taskResult(value) : value);
  const failure = (state: CallState, error: unknown): unknown => {
    state.trace?.failed(error, state.mode);
    // The state names the call itself (its `requestId` and `taskId`), read only if a line is logged.
    return boundary.fail(kind, state.subject, state.mode, error, state);
  };
  return Object.freeze({
    name: 'error-boundary',
    answer,
    failure,
    run: (state: CallState, next: (state: CallState) => Promise<unknown>) =>
      next(state).then(
        (value) => answer(state, value),
        (error: unknown) => failure(state, error)
      )
  });
}
