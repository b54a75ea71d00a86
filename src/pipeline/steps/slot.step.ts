import type { Release } from '../../concurrency/slot-gate';
import { named, type NamedStep } from './named-step';

/** A stage that holds a slot around the rest of the chain: acquired (abortably) before, released in `finally`. */
export function slotStep(name: string, acquire: (signal: AbortSignal) => Promise<Release>): NamedStep {
  return named(name, async (state, next) => {
    const release = await acquire(state.signal);
    try {
      return await next();
    } finally {
      release();
    }
  });
}
