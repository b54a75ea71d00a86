import type { CallQueue } from '../../concurrency/call-queue';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/** Waits for a slot of the app's call queue (or is refused when it is full); frees it in `finally`. */
export function queueStep(queue: CallQueue): NamedStep {
  return slotStep('queue', (signal) => queue.acquire(signal));
}
