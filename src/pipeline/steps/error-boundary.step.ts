import type { ErrorBoundary } from '../error-boundary';
import type { CallKind } from '../../types/core';
import { named, type NamedStep } from './named-step';

/**
 * The outermost step of every chain: every failure of the call, whatever step or handler threw
 * it, leaves through the one error boundary (an `isError` result, a task's outcome, or a
 * thrown JSON-RPC error); in task mode the result is the task's outcome too. It maps and does
 * nothing else: the engine (`CallEngine.finish`) ends the call with what it gives. Chained
 * rather than awaited: a call waiting in the queue keeps one suspended frame fewer.
 */
export function errorBoundaryStep(boundary: ErrorBoundary, kind: CallKind): NamedStep {
  return named('error-boundary', (state, next) =>
    next().then(
      (value) => (state.mode === 'task' ? boundary.taskResult(value) : value),
      (error: unknown) => {
        state.trace?.failed(error, state.mode);
        return boundary.fail(kind, state.subject, state.mode, error, {
          requestId: state.request.requestId,
          taskId: state.task?.taskId
        });
      }
    )
  );
}
