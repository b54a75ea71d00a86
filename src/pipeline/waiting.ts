import { setImmediate as nextTurn } from 'node:timers';
import type { CallState } from './call-state';

/**
 * Tells a request that wants to know (`onWaiting`: a task-capable call, which becomes a task
 * then) that its handler is waiting on something outside the current turn: I/O, a timer, a
 * promise not yet settled when the turn ends. Costs nothing for any other request.
 */
export function noteWaiting(state: CallState, pending: unknown): void {
  const notify = state.request.onWaiting;
  if (!notify || typeof (pending as { then?: unknown })?.then !== 'function') return;
  let settled = false;
  const done = (): void => {
    settled = true;
  };
  (pending as PromiseLike<unknown>).then(done, done);
  nextTurn(() => {
    if (!settled) notify();
  });
}
