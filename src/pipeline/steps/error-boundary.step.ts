import { ToolError } from '../../errors';
import type { CallState } from '../call-state';
import type { ErrorBoundary } from '../error-boundary';
import type { CallKind } from '../../types/core';
import { named, type NamedStep } from './named-step';

/**
 * The outermost step of every chain: every failure of the call, whatever step or handler
 * threw it, leaves through the one error boundary (an `isError` result, a task's outcome, or a
 * JSON-RPC error); in task mode the result is the task's outcome too. This is where every call
 * ends (`state.end`, the engine's): the call is over when its answer is decided. Chained rather
 * than awaited: a call waiting in the queue keeps one suspended frame fewer. Where a lock's
 * release asked for it (`state.answerAfter`), the decided answer is given a turn later.
 */
export function errorBoundaryStep(boundary: ErrorBoundary, kind: CallKind): NamedStep {
  return named('error-boundary', (state, next) =>
    next().then(
      (value) => end(state, state.mode === 'task' ? boundary.taskResult(value) : value),
      (error: unknown) => {
        // A ToolError is the handler's deliberate answer (a refusal, a "no"): an outcome, which an
        // exactly-once round records; anything else is a failed attempt, which gives the round back.
        state.failed = !(error instanceof ToolError);
        state.trace?.failed(error, state.mode);
        let answer: unknown;
        try {
          answer = boundary.fail(kind, state.subject, state.mode, error);
        } catch (refusal) {
          state.end(undefined);
          throw refusal;
        }
        return end(state, answer);
      }
    )
  );
}

/**
 * Ends the call with its decided answer: now, or once what a lock's release asked it to wait for
 * settles. The outcome is decided now: an abort in the turn it waits (the client's connection
 * closing, say) does not make a round that ran look as if it never had one.
 */
function end(state: CallState, answer: unknown): unknown {
  if (!state.answerAfter) return state.end(answer);
  const aborted = state.aborter.aborted;
  return state.answerAfter.then(() => state.end(answer, aborted));
}
