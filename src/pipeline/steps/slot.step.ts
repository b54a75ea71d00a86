import type { LockRelease } from '../../concurrency/fifo-mutex';
import type { CallState } from '../call-state';
import type { StepNext } from '../compose';
import { named, type NamedStep } from './named-step';

/**
 * A stage that holds a slot around the rest of the chain: acquired (abortably) before, and
 * released in `finally`. The rest of the chain races the abort, so whatever is stuck inside
 * (a middleware, a context factory, a handler that ignores its signal) cannot keep the slot
 * once the call is aborted; once the handler has decided the outcome, no abort reaches the race
 * (`CallAbort.decide`). A release that returns a promise (the Redis lock's, so that the next
 * holder goes first: see `LockRelease`) is waited for before the call goes on outwards: the
 * outcome is decided by then, so an abort in that turn changes nothing.
 */
export function slotStep(name: string, acquire: (state: CallState) => LockRelease | Promise<LockRelease>): NamedStep {
  // A slot taken at once goes straight on (no turn spent awaiting it); a call that waits in line
  // keeps only its `then` (no suspended frame), and its cancellation leaves in one hop.
  return named(name, (state, next) => {
    const got = acquire(state);
    return typeof got === 'function' ? hold(state, next, got) : got.then((release) => hold(state, next, release));
  });
}

/**
 * The rest of the chain, with the slot held; released as soon as the rest settles or the call is
 * aborted, and what the release returns waited for (`CallAbort.race`: no async frame per call).
 */
function hold(state: CallState, next: StepNext, release: LockRelease): Promise<unknown> {
  return state.aborter.race(next(state), release);
}
