import type { CallQueue } from '../../concurrency/call-queue';
import { named, type NamedStep } from './named-step';

/** Waits for a slot of the app's call queue (or is refused when it is full); frees it in `finally`. */
export function queueStep(queue: CallQueue): NamedStep {
  return named('queue', async (state, next) => {
    const release = await queue.acquire(state.signal);
    try {
      return await next();
    } finally {
      release();
    }
  });
}
