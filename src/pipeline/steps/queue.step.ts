import type { CallQueue } from '../../concurrency/call-queue';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/**
 * Waits for a slot of the app's call queue (or is refused when it is full); frees it in
 * `finally`. A free slot is taken at once where the queue can say so (`tryAcquire`); only a
 * call that waits hands the queue its abort (`acquireFor`), or its signal where the queue takes
 * only that (`acquire`).
 */
export function queueStep(queue: CallQueue): NamedStep {
  return slotStep('queue', (state) => queue.tryAcquire?.() ?? queue.acquireFor?.(state.aborter) ?? queue.acquire(state.aborter.signal));
}
