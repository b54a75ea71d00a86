import { UPSTREAM_LIMITS } from './limits';

/**
 * Whether `event` joins a call's queue of unread events, or how it is folded in: below the bound
 * every event is queued; past it a progress replaces the last queued progress when that is the
 * queue's tail (progress only counts up: the latest says it all), a log message is dropped, and
 * questions and outcomes are always queued (they are few: one outcome, and a question parks the call).
 * Returns true when the event was handled here (folded or dropped). Generic over the event type,
 * so that the guards import nothing of the call they bound.
 */
export function foldedIntoFullQueue<E extends { readonly kind: string }>(queue: E[], event: E): boolean {
  if (queue.length < UPSTREAM_LIMITS.maxQueuedEvents) return false;
  if (event.kind === 'log') return true;
  if (event.kind !== 'progress') return false;
  if (queue[queue.length - 1]?.kind === 'progress') queue[queue.length - 1] = event;
  return true;
}
