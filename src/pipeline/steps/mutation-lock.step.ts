import type { LockRelease, MutationLock } from '../../concurrency/fifo-mutex';
import { lockTake } from '../../concurrency/slot-takers';
import type { CallState } from '../call-state';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/**
 * Serializes an app-wide mutation through the app's FIFO lock (exclusive: it waits for every
 * mutation in flight, keyed ones included, and none runs beside it); released in `finally`
 * (return, throw or abort). A grant that carries a fencing token is the call's `ctx.lock`. How
 * the lock is taken is chosen here, once (`lockTake`).
 */
export function mutationLockStep(lock: MutationLock): NamedStep {
  const take = lockTake(lock);
  return slotStep('mutation-lock', (state) => grantOf(state, take(state.aborter)));
}

/** A grant now or later, recorded (see {@link granted}) as it comes. */
export function grantOf(state: CallState, got: LockRelease | Promise<LockRelease>): LockRelease | Promise<LockRelease> {
  return typeof got === 'function' ? granted(state, got) : got.then((release) => granted(state, release));
}

/** Records a grant that says what it holds (its fencing token, its keys) as the call's `ctx.lock`. */
export function granted(state: CallState, release: LockRelease): LockRelease {
  const token = release.fencingToken;
  if (typeof token === 'number') {
    state.lock = { fencingToken: token, keys: release.keys ?? [] };
    (state.ctx as { lock?: unknown }).lock = state.lock;
  }
  return release;
}
