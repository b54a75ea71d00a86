import type { CallQueue } from '../../concurrency/call-queue';
import { queueTake } from '../../concurrency/slot-takers';
import type { NamedStep } from './named-step';
import { slotStep } from './slot.step';

/**
 * Waits for a slot of the app's call queue (or is refused when it is full); frees it in
 * `finally`. How the slot is taken is chosen here, once (`queueTake`): the in-process queue gives
 * a free slot at once and lets a waiting call wait on its own abort; a queue of the user's own is
 * asked with the call's signal.
 */
export function queueStep(queue: CallQueue): NamedStep {
  const take = queueTake(queue);
  // A call admitted before it entered the chain (`CompiledChain.admit`) holds its slot already.
  return slotStep('queue', (state) => state.takeAdmission() ?? take(state.aborter));
}
