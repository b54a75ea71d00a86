import type { MutationLock } from '../../concurrency/fifo-mutex';
import type { Release } from '../../concurrency/slot-gate';
import type { CallState } from '../call-state';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/**
 * Serializes mutations through the app's FIFO lock; released in `finally` (return, throw or
 * abort). A grant that carries a fencing token (a distributed lock) is the call's `ctx.lock`.
 */
export function mutationLockStep(lock: MutationLock): NamedStep {
  return slotStep('mutation-lock', (state) => {
    const got = lock.tryAcquire?.() ?? lock.acquireFor?.(state.aborter) ?? lock.acquire(state.aborter.signal);
    return typeof got === 'function' ? granted(state, got) : got.then((release) => granted(state, release));
  });
}

function granted(state: CallState, release: Release): Release {
  const token = (release as { fencingToken?: unknown }).fencingToken;
  if (typeof token === 'number') {
    state.lock = { fencingToken: token };
    (state.ctx as { lock?: unknown }).lock = state.lock;
  }
  return release;
}
