import type { MutationLock } from '../../concurrency/fifo-mutex';
import { named, type NamedStep } from './named-step';

/** Serializes mutations through the app's FIFO lock; released in `finally` (return, throw or abort). */
export function mutationLockStep(lock: MutationLock): NamedStep {
  return named('mutation-lock', async (state, next) => {
    const release = await lock.acquire(state.signal);
    try {
      return await next();
    } finally {
      release();
    }
  });
}
