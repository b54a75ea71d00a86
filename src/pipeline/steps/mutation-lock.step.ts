import type { MutationLock } from '../../concurrency/fifo-mutex';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/** Serializes mutations through the app's FIFO lock; released in `finally` (return, throw or abort). */
export function mutationLockStep(lock: MutationLock): NamedStep {
  return slotStep(
    'mutation-lock',
    (state) => lock.tryAcquire?.() ?? lock.acquireFor?.(state.aborter) ?? lock.acquire(state.aborter.signal)
  );
}
